import type { DecodeSSEOptions } from './decode-sse.js';
import type { SSEMessage } from './sse-message.js';
import { createSSEDecoder, type SSEDecoder } from './sse-decoder.js';

/** What a {@link readSSE} handler asks for after a message: the next one, or no more (the body is cancelled). */
export type SSEReadStep = 'continue' | 'stop';

/** How {@link readSSE} finished: the body ended, or the handler stopped reading. */
export type SSEReadEnd = 'ended' | 'stopped';

/**
 * Reads a `text/event-stream` body and calls `onMessage` with each message, in order, as its chunk arrives: what
 * {@link decodeSSE} yields (same decoding, same limits), without an async iterator. One await per network chunk
 * and nothing else: with one event per chunk (a server or proxy that flushes each event) the promise hops of an
 * async generator cost about as much as decoding the event (apps/bench). The run client reads this way.
 *
 * Returning `'stop'` (or throwing) ends the read: no later message is handed over, and the body is cancelled.
 * However it ends, the stream's lock is released.
 *
 * @returns `'ended'` when the body ended (a message cut off by the end is not dispatched, as the SSE standard
 * requires) and `signal` was not aborted, `'stopped'` when `onMessage` returned `'stop'` (which wins over an abort).
 * @throws {ProtocolError} when a line or message passes `maxMessageBytes`, after every message before it; also what
 * `onMessage` throws, the stream's own error (an aborted fetch, a dropped connection), and the reason of an
 * aborted `signal` (the stream is cancelled, so a body that ignores its abort still ends the read; the messages the
 * current chunk already completed are handed over first).
 * @example
 * await readSSE(response.body!, (message) => {
 *   console.log(message.event, message.data);
 *   return message.event === 'run.completed' ? 'stop' : 'continue';
 * });
 */
export async function readSSE(
  stream: ReadableStream<Uint8Array>,
  onMessage: (message: SSEMessage) => SSEReadStep,
  options: DecodeSSEOptions = {},
): Promise<SSEReadEnd> {
  // The messages a chunk completed are handed over from this loop, not from inside the parser, so the handler runs
  // in a flat loop (a callback from the parser's line loop was slower on large chunks, apps/bench). The first one
  // waits in a variable and only the others in an array, emptied after each chunk: with one event per chunk (a
  // server or proxy that flushes each event) the array is never touched.
  let first: SSEMessage | undefined;
  const others: SSEMessage[] = [];
  const decoder = createSSEDecoder(
    (message) => {
      if (first === undefined) first = message;
      else others.push(message);
    },
    options.onComment,
    options.maxMessageBytes,
  );
  /** Hands over the chunk's messages in order; whether the handler stopped at one of them. */
  const handOver = (): boolean => {
    if (first === undefined) return false;
    const message = first;
    first = undefined;
    let stopped = onMessage(message) === 'stop';
    if (others.length === 0) return stopped;
    for (let index = 0; index < others.length && !stopped; index++) stopped = onMessage(others[index]!) === 'stop';
    others.length = 0;
    return stopped;
  };
  const { onBytes, signal } = options;
  const reader = stream.getReader();
  // A fetch body errors on its own abort; a custom fetch's or a mock's may not, and its read would wait for good.
  const cancel = () => reader.cancel().catch(() => undefined);
  if (signal?.aborted) void cancel();
  else signal?.addEventListener('abort', cancel);
  let bodyEnded = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (onBytes !== undefined) onBytes(value.byteLength);
      if (take(decoder, value, handOver)) return 'stopped';
    }
    signal?.throwIfAborted();
    bodyEnded = true;
    return take(decoder, undefined, handOver) ? 'stopped' : 'ended';
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!bodyEnded) await cancel();
    reader.releaseLock();
  }
}

/**
 * One chunk (or the end of the body) through the decoder, then its messages to the handler; whether it stopped. A
 * line over the size limit throws from the decoder: the messages before it in the chunk are still handed over
 * first, and when the handler stops at one of them the over-long line is no longer its concern.
 */
function take(decoder: SSEDecoder, bytes: Uint8Array | undefined, handOver: () => boolean): boolean {
  try {
    if (bytes === undefined) decoder.end();
    else decoder.push(bytes);
  } catch (error) {
    if (handOver()) return true;
    throw error;
  }
  return handOver();
}
