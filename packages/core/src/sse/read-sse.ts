import type { DecodeSSEOptions } from './decode-sse.js';
import type { SSEMessage } from './sse-message.js';
import { createSSEDecoder } from './sse-decoder.js';

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
 * requires), `'stopped'` when `onMessage` returned `'stop'`.
 * @throws {ProtocolError} when a line or message passes `maxMessageBytes`, after every message before it; also what
 * `onMessage` throws, and the stream's own error (an aborted fetch, a dropped connection).
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
  // Set by the handler inside the decoder's callback, which control-flow narrowing cannot see: hence the cast.
  let step = 'continue' as SSEReadStep;
  const decoder = createSSEDecoder(
    (message) => {
      // A chunk may complete more messages after the one that stopped: they are no longer the handler's.
      if (step === 'continue') step = onMessage(message);
    },
    options.onComment,
    options.maxMessageBytes,
  );
  const onBytes = options.onBytes;
  const reader = stream.getReader();
  let bodyEnded = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (onBytes !== undefined) onBytes(value.byteLength);
      decoder.push(value);
      if (step === 'stop') return 'stopped';
    }
    bodyEnded = true;
    decoder.end();
    return step === 'stop' ? 'stopped' : 'ended';
  } catch (error) {
    // An over-long line after the message the handler stopped at is no longer its concern.
    if (step === 'stop') return 'stopped';
    throw error;
  } finally {
    if (!bodyEnded) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
