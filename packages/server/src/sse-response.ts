import { ProtocolError, encodeSSEComment, parseSSEMessage, type KestrelHeaders, type RunEvent } from '@kestrel/core';
import { checkWireEvent, logProtocolError, type CheckedWireEvent } from './checked-wire-event.js';
import { sseHeaders } from './sse-headers.js';

/** The longest silence the protocol allows on a live stream (docs/protocol.md#heartbeat). */
export const KEEP_ALIVE_INTERVAL_MS = 15_000;

/** Options of {@link sseResponse}. */
export interface SSEResponseOptions {
  /** Silence after which a `: keep-alive` comment is written. Default 15 000 ms. */
  readonly keepAliveMs?: number;
  /** Usually `request.signal`: when the client goes away the events are no longer read. */
  readonly signal?: AbortSignal;
  readonly status?: number;
  readonly headers?: KestrelHeaders;
  /**
   * Told when an event breaks the protocol; the stream then ends without it, and without a terminal event.
   * Default `console.error`.
   */
  readonly onProtocolError?: (error: ProtocolError) => void;
}

const typeOf = (event: RunEvent) => (event.type === 'unknown' ? event.unknownType : event.type);

/**
 * Checks one event as it will be written, and against the one written before it: one run per stream, and a seq
 * that only grows (a client drops an event whose seq is not greater as a duplicate, without a word).
 */
function checkStreamEvent(event: RunEvent, previous: RunEvent | undefined): CheckedWireEvent<RunEvent> {
  const checked = checkWireEvent(event, (data) => parseSSEMessage({ data }));
  if (previous === undefined) return checked;
  const { runId, seq } = checked.event;
  const where = { eventType: typeOf(checked.event), seq, raw: checked.data };
  if (runId !== previous.runId) {
    throw new ProtocolError(`runId "${runId}" differs from the stream's run "${previous.runId}"`, {
      ...where,
      path: ['runId'],
    });
  }
  if (seq <= previous.seq) {
    throw new ProtocolError(`seq ${seq} is not greater than the previous event's seq ${previous.seq}`, {
      ...where,
      path: ['seq'],
    });
  }
  return checked;
}

/**
 * Streams run events as `text/event-stream`: one message per event (`event:` type, `id:` seq, JSON `data:`),
 * a keep-alive comment after 15 s of silence, and nothing after `run.completed`. When the client disconnects the
 * iterator is closed (its `finally` blocks run). When the iterator throws, the response is cut rather than ended:
 * the client sees a dropped connection and resumes with `Last-Event-ID`, instead of reading a truncated stream as
 * finished.
 *
 * Every event is checked with the core schemas before it is written, as a client will read it. The first one that
 * breaks the protocol (a COMPLETED without assistant text, a seq that does not grow, another run's event) is not
 * written: the stream ends there, without a terminal event, so the client reports a truncated stream rather than
 * an outcome the run never had, and `onProtocolError` hears what was wrong (seq and field).
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
  let previous: RunEvent | undefined;

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
      let checked: CheckedWireEvent<RunEvent>;
      try {
        checked = checkStreamEvent(next.value, previous);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        end();
        (options.onProtocolError ?? logProtocolError('sseResponse'))(error);
        return;
      }
      previous = checked.event;
      // The text that was checked is the text that goes out.
      write(`event: ${typeOf(checked.event)}\nid: ${checked.event.seq}\ndata: ${checked.data}\n\n`);
      // The stream ends after the terminal event (docs/protocol.md#events).
      if (checked.event.type === 'run.completed') end();
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, { status: options.status ?? 200, headers: sseHeaders(options.headers) });
}
