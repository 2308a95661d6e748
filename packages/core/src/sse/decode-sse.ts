import type { SSEMessage } from './sse-message.js';
import { createSSEDecoder } from './sse-decoder.js';

/**
 * Options of `decodeSSE`, `decodeSSEBatches` and `readSSE`: hooks that see what the messages do not carry (keep-alive
 * comments, raw byte arrival for liveness timers), the size limit, and an abort signal.
 */
export interface DecodeSSEOptions {
  /** Called for each comment line (`: keep-alive`), without the leading colon. */
  readonly onComment?: ((comment: string) => void) | undefined;
  /** Called for every chunk of bytes, before decoding: a sign of life for heartbeat timers. */
  readonly onBytes?: ((byteLength: number) => void) | undefined;
  /**
   * The longest line or message accepted; a longer one ends the stream with a `ProtocolError` naming the size and
   * the limit. Default 16 MiB.
   */
  readonly maxMessageBytes?: number | undefined;
  /**
   * Aborting it ends the read: the body is cancelled and the read throws the signal's reason, also when the body
   * itself does not end on the abort (a custom `fetch` or a mock that ignores its signal, whose read would otherwise
   * wait for good). The messages the current chunk already completed are still handed over first; an abort at the
   * very end still throws, and only a handler's own `'stop'` (readSSE) ends the read without it.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Decodes a `text/event-stream` body into messages. UTF-8 is decoded across chunk boundaries, a leading BOM is
 * ignored, and any line ending is accepted. A message that is cut off by the end of the stream (no blank line)
 * is not dispatched, as the SSE standard requires.
 *
 * @example
 * for await (const message of decodeSSE(response.body!)) console.log(message.event, message.data);
 */
export async function* decodeSSE(
  stream: ReadableStream<Uint8Array>,
  options: DecodeSSEOptions = {},
): AsyncGenerator<SSEMessage, void, undefined> {
  for await (const batch of decodeSSEBatches(stream, options)) for (const message of batch) yield message;
}

/**
 * {@link decodeSSE}, a network chunk at a time: yields the messages each chunk completed, together (never an
 * empty batch). One await per chunk instead of one per message: the async iteration per message was a third of
 * the run client's allocations on long streams (apps/bench, docs/performance.md). Without an async iterator at all,
 * `readSSE` is cheaper still; the run client reads with that.
 *
 * @example
 * for await (const messages of decodeSSEBatches(response.body!)) for (const message of messages) handle(message);
 */
export async function* decodeSSEBatches(
  stream: ReadableStream<Uint8Array>,
  options: DecodeSSEOptions = {},
): AsyncGenerator<readonly SSEMessage[], void, undefined> {
  let queue: SSEMessage[] = [];
  const decoder = createSSEDecoder((message) => queue.push(message), options.onComment, options.maxMessageBytes);
  const take = () => {
    const batch = queue;
    queue = [];
    return batch;
  };
  // A line over the size limit throws from the parser; the messages the same chunk completed before it are still
  // delivered first, so nothing valid is dropped on the way to the error.
  let refused: { readonly error: unknown } | undefined;
  const feed = (bytes?: Uint8Array) => {
    try {
      if (bytes === undefined) decoder.end();
      else decoder.push(bytes);
    } catch (error) {
      refused = { error };
    }
  };
  const reader = stream.getReader();
  // As in readSSE: a body that ignores the abort is cancelled, so its pending read ends.
  const cancel = () => reader.cancel().catch(() => undefined);
  const signal = options.signal;
  if (signal?.aborted) void cancel();
  else signal?.addEventListener('abort', cancel);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      options.onBytes?.(value.byteLength);
      feed(value);
      if (queue.length > 0) yield take();
      if (refused !== undefined) throw refused.error;
    }
    signal?.throwIfAborted();
    feed();
    if (queue.length > 0) yield take();
    if (refused !== undefined) throw refused.error;
    finished = true;
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!finished) await cancel();
    reader.releaseLock();
  }
}
