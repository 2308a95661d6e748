import { requestErrorBodySchema } from '../protocol/schemas.js';
import type { RunError } from '../run/run-state.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../sse/sse-parser.js';
import { RunClientError } from './run-client-error.js';
import { startSilenceTimer } from './silence-timer.js';
import type { HeadersInput, RunClientOptions } from './types.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface SendOptions {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly accept: 'text/event-stream' | 'application/json';
  readonly body?: unknown;
  readonly lastEventId?: number | undefined;
  /** Aborting it aborts the request and its body. */
  readonly signal?: AbortSignal | undefined;
  readonly runId?: string | null | undefined;
}

/** The HTTP side of the client: URLs, headers, redirects, the request timeout, body limits and PROTOCOL.md's error bodies. */
export interface Http {
  /** `maxMessageBytes`, resolved: the SSE decoder and {@link Http.readText} share it. */
  readonly maxMessageBytes: number;
  /**
   * Sends one request and resolves with a 2xx response. Rejects with a {@link RunClientError} (`http`, `timeout`
   * or `transport`), or with the signal's reason when `signal` aborted it. A redirect is never followed (an `http`
   * error of code `redirect`), so custom headers never reach another origin and a body is never sent twice.
   */
  send(options: SendOptions): Promise<Response>;
  /**
   * Reads a (JSON) body as text. Every silence is bounded by `requestTimeoutMs` (any byte resets it) and the size
   * by `maxMessageBytes`; rejects with a `timeout`, `protocol` or `transport` {@link RunClientError}.
   */
  readText(response: Response, what: string, runId?: string | null): Promise<string>;
}

async function resolveHeaders(input: HeadersInput | undefined): Promise<HeadersInit> {
  if (input === undefined) return {};
  return typeof input === 'function' ? await input() : input;
}

function joinUrl(baseUrl: string, path: string): string {
  // Concatenate rather than `new URL(path, base)`, which would drop a base path such as `/api`.
  return baseUrl.replace(/\/+$/, '') + path;
}

/** An error body is evidence, read for its first 200 characters: more than this is not read at all. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads PROTOCOL.md's `{ error: { code, message } }` body; any other body still yields a readable message. */
async function httpErrorFrom(response: Response, runId: string | null, timeoutMs: number): Promise<RunClientError> {
  const { status } = response;
  if (status < 400) {
    // A 3xx, or a browser's opaque redirect (status 0): never followed, so headers and bodies never go elsewhere.
    void response.body?.cancel().catch(() => undefined);
    return new RunClientError({ kind: 'http', status, code: 'redirect', message: `HTTP ${status}: redirect not followed` }, { runId });
  }
  let text = '';
  try {
    text = await readBodyText(response, 'error body', runId, timeoutMs, MAX_ERROR_BODY_BYTES);
  } catch {
    // The body is optional evidence; the status alone is still an error.
  }
  let code: string | null = null;
  let reason = response.statusText || 'request failed';
  try {
    const body = requestErrorBodySchema.safeParse(JSON.parse(text));
    if (body.success) {
      code = body.data.error.code;
      reason = body.data.error.message;
    } else if (text.trim() !== '') reason = text.trim().slice(0, 200);
  } catch {
    if (text.trim() !== '') reason = text.trim().slice(0, 200);
  }
  const detail: RunError = {
    kind: 'http',
    status,
    code,
    message: `HTTP ${status}${code === null ? '' : ` ${code}`}: ${reason}`,
  };
  return new RunClientError(detail, { runId });
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

/** @throws {RangeError} when `requestTimeoutMs` or `maxMessageBytes` is not a positive number, naming it. */
export function createHttp(options: RunClientOptions): Http {
  const timeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
  const maxMessageBytes = positive('maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);
  return {
    maxMessageBytes,
    async send(request) {
      const runId = request.runId ?? null;
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const headers = new Headers(await resolveHeaders(options.headers));
      headers.set('accept', request.accept);
      if (request.body !== undefined) headers.set('content-type', 'application/json');
      if (request.lastEventId !== undefined && request.lastEventId > 0) headers.set('last-event-id', String(request.lastEventId));

      const controller = new AbortController();
      const outer = request.signal;
      const onAbort = () => controller.abort(outer?.reason);
      if (outer?.aborted) throw outer.reason;
      outer?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);

      try {
        const response = await fetchImpl(joinUrl(options.baseUrl, request.path), {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: controller.signal,
          // Following, fetch would carry custom headers (an API key) to another origin and re-POST a body on 307.
          redirect: 'manual',
        });
        if (!response.ok) throw await httpErrorFrom(response, runId, timeoutMs);
        return response;
      } catch (error) {
        if (error instanceof RunClientError) throw error;
        if (timedOut) {
          throw new RunClientError(
            { kind: 'timeout', timeoutMs, message: `No response headers from ${request.method} ${request.path} within ${timeoutMs} ms` },
            { runId, cause: error },
          );
        }
        if (outer?.aborted) throw outer.reason;
        throw new RunClientError(
          { kind: 'transport', message: `${request.method} ${request.path} failed: ${(error as Error).message ?? String(error)}` },
          { runId, cause: error },
        );
      } finally {
        clearTimeout(timer);
        // Keep the link for the body: aborting the attempt must still cancel a stream being read.
        if (controller.signal.aborted) outer?.removeEventListener('abort', onAbort);
      }
    },
    readText: (response, what, runId = null) => readBodyText(response, what, runId, timeoutMs, maxMessageBytes),
  };
}

async function readBodyText(response: Response, what: string, runId: string | null, timeoutMs: number, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let size = 0;
  let silent = false;
  // Cancelling ends the pending read (done), and with it the connection.
  const silence = startSilenceTimer(timeoutMs, () => {
    silent = true;
    void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const chunk = await reader.read().catch((cause: unknown) => {
        if (silent) return { done: true } as const;
        throw new RunClientError({ kind: 'transport', message: `${what}: the connection dropped while reading the body` }, { runId, cause });
      });
      if (silent) {
        throw new RunClientError({ kind: 'timeout', timeoutMs, message: `${what}: no data for ${timeoutMs} ms (requestTimeoutMs)` }, { runId });
      }
      if (chunk.done) return text + decoder.decode();
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        const message = `${what} of ${size}+ bytes is over maxMessageBytes (${maxBytes})`;
        throw new RunClientError({ kind: 'protocol', message, eventType: null, seq: null, path: [], raw: undefined }, { runId });
      }
      text += decoder.decode(chunk.value, { stream: true });
      silence.reset();
    }
  } finally {
    silence.stop();
    void reader.cancel().catch(() => undefined);
  }
}
