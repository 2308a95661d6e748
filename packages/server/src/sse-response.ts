import { encodeSSEComment, encodeSSEEvent, type KestrelHeaders, type RunEvent } from '@kestrel/core';
import { sseHeaders } from './sse-headers.js';

/** The longest silence PROTOCOL.md allows on a live stream. */
export const KEEP_ALIVE_INTERVAL_MS = 15_000;

/** Options of {@link sseResponse}. */
export interface SSEResponseOptions {
  /** Silence after which a `: keep-alive` comment is written. Default 15 000 ms. */
  readonly keepAliveMs?: number;
  /** Usually `request.signal`: when the client goes away the events are no longer read. */
  readonly signal?: AbortSignal;
  readonly status?: number;
  readonly headers?: KestrelHeaders;
}

/**
 * Streams run events as `text/event-stream`: one message per event (`event:` type, `id:` seq, JSON `data:`),
 * a keep-alive comment after 15 s of silence, and nothing after `run.completed`. When the client disconnects the
 * iterator is closed (its `finally` blocks run). When the iterator throws, the response is cut rather than ended:
 * the client sees a dropped connection and resumes with `Last-Event-ID`, instead of reading a truncated stream as
 * finished.
 *
 * @example
 * // Next.js route handler, Hono, Remix...
 * export async function GET(request: Request) {
 *   return sseResponse(kestrelEventsFor(request), { signal: request.signal });
 * }
 */
export function sseResponse(events: AsyncIterable<RunEvent>, options: SSEResponseOptions = {}): Response {
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_INTERVAL_MS;
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;

  const write = (text: string) => {
    controller.enqueue(encoder.encode(text));
    clearTimeout(timer);
    timer = setTimeout(() => write(encodeSSEComment()), keepAliveMs);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    // Runs the source's `finally` blocks; a generator parked in an await finishes at its next yield.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  const end = () => {
    finish();
    try {
      controller.close();
    } catch {
      // already closed or errored
    }
  };
  const stop = () => end();

  // Pull-based: the next event is read only once the previous one was taken, so a failing source never discards
  // events that were already queued for the client.
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      if (options.signal?.aborted) return end();
      options.signal?.addEventListener('abort', stop, { once: true });
      // An opening comment flushes the headers through buffering proxies and starts the keep-alive clock.
      write(encodeSSEComment('stream open'));
    },
    async pull() {
      if (finished) return;
      let next: IteratorResult<RunEvent>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (finished) return;
        finish();
        controller.error(error);
        return;
      }
      if (finished) return;
      if (next.done === true) return end();
      write(encodeSSEEvent(next.value));
      // The stream ends after the terminal event (PROTOCOL.md section 2).
      if (next.value.type === 'run.completed') end();
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, { status: options.status ?? 200, headers: sseHeaders(options.headers) });
}
