import { requestErrorBodySchema } from '../protocol/schemas.js';
import type { RunError } from '../run/run-state.js';
import { toHeaders, type KestrelHeaders } from './kestrel-headers.js';
import { RunClientError } from './run-client-error.js';
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

/** The HTTP side of the client: URLs, headers, the header timeout and PROTOCOL.md's error bodies. */
export interface Http {
  /**
   * Sends one request and resolves with a 2xx response. Rejects with a {@link RunClientError} (`http`, `timeout`
   * or `transport`), or with the signal's reason when `signal` aborted it.
   */
  send(options: SendOptions): Promise<Response>;
}

async function resolveHeaders(input: HeadersInput | undefined): Promise<KestrelHeaders> {
  if (input === undefined) return {};
  return typeof input === 'function' ? await input() : input;
}

function joinUrl(baseUrl: string, path: string): string {
  // Concatenate rather than `new URL(path, base)`, which would drop a base path such as `/api`.
  return baseUrl.replace(/\/+$/, '') + path;
}

/** Reads PROTOCOL.md's `{ error: { code, message } }` body; any other body still yields a readable message. */
export async function httpErrorFrom(response: Response, runId: string | null = null): Promise<RunClientError> {
  let text = '';
  try {
    text = await response.text();
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

export function createHttp(options: RunClientOptions): Http {
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return {
    async send(request) {
      const runId = request.runId ?? null;
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const headers = toHeaders(await resolveHeaders(options.headers));
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
        });
        if (!response.ok) throw await httpErrorFrom(response, runId);
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
  };
}
