import { requestErrorBodySchema } from '../protocol/schemas.js';
import { toProtocolRunError } from '../run/protocol-run-error.js';
import type { RunError } from '../run/run-state.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../sse/sse-parser.js';
import { toHeaders, type KestrelHeaders } from '../protocol/kestrel-headers.js';
import { RunClientError } from './run-client-error.js';
import { startSilenceTimer } from './silence-timer.js';
import type { TransportTap } from './transport-tap.js';
import type { HeadersInput, RunClientOptions } from './types.js';
import { errorMessage } from '../error-message.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** An error body is read for the protocol's JSON error: more than this is not read at all. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export interface SendOptions {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly accept: 'text/event-stream' | 'application/json';
  readonly body?: unknown;
  readonly lastEventId?: number | undefined;
  /** Aborting it aborts the request and its body. */
  readonly signal?: AbortSignal | undefined;
  readonly runId?: string | null | undefined;
  /** Hears the request, its status or its failure (`RunHandle.subscribeTransport`). */
  readonly tap?: TransportTap | undefined;
}

/** The HTTP side of the client: URLs, headers, redirects, the request timeout, body limits and the error bodies of docs/protocol.md#request-errors. */
export interface Http {
  /** `maxMessageBytes`, resolved: the SSE decoder reads with it too. */
  readonly maxMessageBytes: number;
  /**
   * Sends one request and resolves with a 2xx response. Rejects with a {@link RunClientError} (`http`, `timeout`
   * or `transport`), or with the signal's reason when `signal` aborted it. A redirect is never followed (an `http`
   * error of code `redirect`), so custom headers never reach another origin and a body is never sent twice.
   */
  send(options: SendOptions): Promise<Response>;
  /**
   * {@link Http.send}, then the 2xx body as text. `requestTimeoutMs` bounds every silence until its end (any byte
   * starts it again), and `maxMessageBytes` its size (a `protocol` error).
   */
  sendForText(options: SendOptions): Promise<string>;
}

async function resolveHeaders(input: HeadersInput | undefined): Promise<KestrelHeaders> {
  if (input === undefined) return {};
  return typeof input === 'function' ? await input() : input;
}

/**
 * Reads the protocol's `{ error: { code, message } }` body (docs/protocol.md#request-errors). Any other body (an
 * HTML error page) is named by its content type, never quoted: it is not text meant for a person.
 */
function httpErrorFrom(response: Response, text: string, runId: string | null, what: string): RunClientError {
  const redirect = response.status < 400;
  let code: string | null = redirect ? 'redirect' : null;
  let reason = redirect ? 'not followed' : `${response.headers.get('content-type') ?? 'unknown'} body not shown`;
  if (!redirect)
    try {
      const body = requestErrorBodySchema.safeParse(JSON.parse(text));
      if (body.success) ({ code, message: reason } = body.data.error);
    } catch {
      // Not JSON: named by its content type, never quoted.
    }
  const detail: RunError = {
    kind: 'http',
    status: response.status,
    code,
    message: `${what}: HTTP ${response.status}${code === null ? '' : ` ${code}`}: ${reason}`,
  };
  return new RunClientError(detail, { runId });
}

/** `value`, or `fallback` when undefined; `Infinity` for no bound. @throws {RangeError} naming it, when not > 0. */
export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

/** @throws {RangeError} when `requestTimeoutMs` or `maxMessageBytes` is not a positive number, naming it. */
export function createHttp(options: RunClientOptions): Http {
  // Concatenated rather than `new URL(path, base)`, which would drop a base path such as `/api`.
  const base = options.baseUrl.replace(/\/+$/, '');
  // What messages name: the path alone, never the origin's credentials, a query or a fragment, which may carry
  // tokens. Base path included, so a `baseUrl` ending in `/v1` shows as `/v1/v1/…`.
  const basePath = base.replace(/^[^/]*\/\/[^/]*|[?#].*/g, '');
  const timeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
  const maxMessageBytes = positive('maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);

  async function exchange(request: SendOptions, asText: false): Promise<Response>;
  async function exchange(request: SendOptions, asText: true): Promise<string>;
  async function exchange(request: SendOptions, asText: boolean): Promise<Response | string> {
    const runId = request.runId ?? null;
    const { method, path } = request;
    const what = `${method} ${basePath}${path}`;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const controller = new AbortController();
    const outer = request.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) throw outer.reason;
    outer?.addEventListener('abort', onAbort, { once: true });
    // One wait for the headers, started again by every byte of a body read here: a slow but live answer is never
    // cut, a stalled one always is.
    let timedOut = false;
    const silence = startSilenceTimer(timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    // Every wait of the request also ends on the abort: a custom fetch (or its body) that ignores its signal would
    // otherwise hold it for ever, past requestTimeoutMs and the caller's own abort.
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
    );
    aborted.catch(() => undefined);
    /** The body as text, at most `max` bytes (more is a `protocol` error); the aborted signal ends a stalled read. */
    const readText = async (response: Response, max: number): Promise<string> => {
      const reader = response.body?.getReader();
      const decoder = new TextDecoder('utf-8');
      let text = '';
      let size = 0;
      try {
        for (;;) {
          const chunk = await Promise.race([reader?.read(), aborted]);
          if (chunk === undefined || chunk.done) return text + decoder.decode();
          size += chunk.value.byteLength;
          if (size > max) {
            const message = `${what}: a body of ${size}+ bytes is over maxMessageBytes (${max})`;
            throw new RunClientError(toProtocolRunError({ message }), { runId });
          }
          text += decoder.decode(chunk.value, { stream: true });
          silence.reset();
        }
      } catch (error) {
        // Too long, or a read that lost to the abort (a body deaf to it): the rest is not read, and not left open.
        void reader?.cancel().catch(() => undefined);
        throw error;
      }
    };

    // Read once the headers are in: a transport listener added just after the start (a recorder) hears this request.
    let tap: typeof request.tap;
    let sent: Promise<Response> | undefined;
    try {
      // The app's headers (a token fetched on demand) are awaited within the request's bound and its abort.
      const headers = toHeaders(await Promise.race([resolveHeaders(options.headers), aborted]));
      headers.set('accept', request.accept);
      if (request.body !== undefined) headers.set('content-type', 'application/json');
      if (request.lastEventId !== undefined && request.lastEventId > 0)
        headers.set('last-event-id', String(request.lastEventId));
      tap = request.tap?.active === true ? request.tap : undefined;
      tap?.emit({
        type: 'request',
        method,
        path,
        // Sent only when above 0 (a seq), as the header above: 0 and no id alike are none.
        lastEventId: request.lastEventId || null,
      });
      sent = fetchImpl(base + path, {
        method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
        // Following, fetch would carry custom headers (an API key) to another origin and re-POST a body on 307.
        redirect: 'manual',
      });
      const response = await Promise.race([sent, aborted]);
      tap?.emit({ type: 'response', method, path, status: response.status });
      // The error body is optional evidence: when it cannot be read, the status alone is still the error.
      if (!response.ok)
        throw httpErrorFrom(response, await readText(response, MAX_ERROR_BODY_BYTES).catch(() => ''), runId, what);
      return asText ? await readText(response, maxMessageBytes) : response;
    } catch (error) {
      // A fetch deaf to its abort may still answer after the request failed: that late body is cancelled unread.
      void sent?.then((late) => late.body?.cancel()).catch(() => undefined);
      if (error instanceof RunClientError) throw error;
      if (outer?.aborted && !timedOut) throw outer.reason;
      const detail: RunError = timedOut
        ? { kind: 'timeout', timeoutMs, message: `${what}: no data for ${timeoutMs} ms (requestTimeoutMs)` }
        : { kind: 'transport', message: `${what} failed: ${errorMessage(error)}` };
      tap?.emit({ type: 'request-failed', method, path, error: detail });
      throw new RunClientError(detail, { runId, cause: error });
    } finally {
      silence.stop();
      // Keep the link for a body read later: aborting the attempt must still cancel a stream being read.
      if (asText || controller.signal.aborted) outer?.removeEventListener('abort', onAbort);
    }
  }

  return {
    maxMessageBytes,
    send: (request) => exchange(request, false),
    sendForText: (request) => exchange(request, true),
  };
}
