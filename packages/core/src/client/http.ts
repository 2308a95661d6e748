import { requestErrorBodySchema } from '../protocol/schemas.js';
import type { RunError } from '../run/run-state.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../sse/sse-parser.js';
import { RunClientError } from './run-client-error.js';
import { startSilenceTimer } from './silence-timer.js';
import type { HeadersInput, RunClientOptions } from './types.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Same-origin redirects a GET may follow before the request counts as failed. */
const MAX_REDIRECTS = 5;

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
   * or `transport`), or with the signal's reason when `signal` aborted it. A POST never follows a redirect; a GET
   * follows same-origin ones only, so custom headers never reach another origin.
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
  let text = '';
  try {
    text = await readBodyText(response, { what: 'error body', runId, timeoutMs, maxBytes: MAX_ERROR_BODY_BYTES });
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
    status: response.status,
    code,
    message: `HTTP ${response.status}${code === null ? '' : ` ${code}`}: ${reason}`,
  };
  return new RunClientError(detail, { runId });
}

/** A browser answers `redirect: 'manual'` with an opaque response (status 0, no Location); Node with the 3xx itself. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || response.status === 0 || (response.status >= 300 && response.status < 400);
}

/** Where a GET may go next: a same-origin `Location` only; `null` when it is hidden, malformed or elsewhere. */
function sameOriginTarget(response: Response, from: string): string | null {
  const location = response.headers.get('location');
  if (location === null) return null;
  try {
    // A relative baseUrl (browsers) resolves against the page, as fetch resolved it.
    const base = new URL(from, (globalThis as { location?: { href?: string } }).location?.href);
    const target = new URL(location, base);
    return target.origin === base.origin ? target.href : null;
  } catch {
    return null;
  }
}

function redirectError(response: Response, request: SendOptions, why: string, runId: string | null): RunClientError {
  const status = response.status;
  return new RunClientError(
    { kind: 'http', status, code: 'redirect', message: `HTTP ${status} redirect: ${request.method} ${request.path} was redirected; ${why}` },
    { runId },
  );
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
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
        const init: RequestInit = {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: controller.signal,
          // Followed by hand below: fetch would carry custom headers (an API key) to another origin and re-POST on 307.
          redirect: 'manual',
        };
        let url = joinUrl(options.baseUrl, request.path);
        for (let hops = 0; ; hops += 1) {
          const response = await fetchImpl(url, init);
          if (!isRedirect(response)) {
            if (!response.ok) throw await httpErrorFrom(response, runId, timeoutMs);
            return response;
          }
          await response.body?.cancel().catch(() => undefined);
          if (request.method !== 'GET') throw redirectError(response, request, 'a POST is not re-sent to another address', runId);
          const target = sameOriginTarget(response, url);
          if (target === null) throw redirectError(response, request, 'only same-origin redirects are followed, and this target is another origin or not visible', runId);
          if (hops >= MAX_REDIRECTS) throw redirectError(response, request, `more than ${MAX_REDIRECTS} redirects`, runId);
          url = target;
        }
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
    readText: (response, what, runId = null) => readBodyText(response, { what, runId, timeoutMs, maxBytes: maxMessageBytes }),
  };
}

interface BodyLimits {
  readonly what: string;
  readonly runId: string | null;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

function tooLarge(limits: BodyLimits, size: number, exact: boolean): RunClientError {
  const message = `${limits.what} is ${exact ? '' : 'at least '}${size} bytes, over the limit of ${limits.maxBytes} bytes (maxMessageBytes)`;
  return new RunClientError({ kind: 'protocol', message, eventType: null, seq: null, path: [], raw: undefined }, { runId: limits.runId });
}

async function readBodyText(response: Response, limits: BodyLimits): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(limits, declared, true);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let size = 0;
  // Cancelling ends the pending read (done), and with it the connection.
  const silence = startSilenceTimer(limits.timeoutMs, () => void reader.cancel().catch(() => undefined));
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (silence.fired) break;
        throw new RunClientError({ kind: 'transport', message: `${limits.what}: the connection dropped while reading the body` }, { runId: limits.runId, cause });
      }
      if (silence.fired) break;
      if (chunk.done) {
        finished = true;
        return text + decoder.decode();
      }
      size += chunk.value.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits, size, false);
      text += decoder.decode(chunk.value, { stream: true });
      silence.reset();
    }
    throw new RunClientError(
      { kind: 'timeout', timeoutMs: limits.timeoutMs, message: `${limits.what}: no data for ${limits.timeoutMs} ms while reading the body (requestTimeoutMs)` },
      { runId: limits.runId },
    );
  } finally {
    silence.stop();
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
