import type { SSEMessage } from './sse-message.js';
import { createSSEParser } from './sse-parser.js';

/** Bytes in, messages out: the decoding `decodeSSEBatches` and `readSSE` share. */
export interface SSEDecoder {
  /**
   * Decodes one chunk and hands each message it completes to `onMessage`, in order, before returning.
   *
   * @throws {ProtocolError} when a line or message passes `maxMessageBytes`, after the messages the chunk completed
   * before it were handed over.
   */
  push(bytes: Uint8Array): void;
  /** The end of the body: flushes a character left split by the last chunk. A message cut off is not dispatched. */
  end(): void;
}

const STREAM: TextDecodeOptions = { stream: true };
const ASCII_LIMIT = 0x80;

/**
 * UTF-8 across chunk boundaries (a leading BOM ignored, any line ending accepted) into the SSE line parser. Each
 * message is a fresh `{ id, event, data }` handed to `onMessage` as the parser completes it.
 */
export function createSSEDecoder(
  onMessage: (message: SSEMessage) => void,
  onComment?: (comment: string) => void,
  maxMessageBytes?: number,
): SSEDecoder {
  const feed = createSSEParser(onMessage, onComment, maxMessageBytes);
  // Stream mode joins characters split across chunks. The one leading BOM is dropped here, not by the decoder:
  // Node 24's decoder also drops a second BOM when the first was split across chunks, and the standard says a
  // second one starts a field name.
  const split = new TextDecoder('utf-8', { ignoreBOM: true });
  // A chunk that ends in an ASCII byte, after one that did too, holds no split character at either end: a plain
  // decode gives the same text. Node's stream-mode decode costs about twice a plain one (the plain one has a
  // native fast path that a decoder loses for good at its first stream-mode call, hence a decoder of its own).
  // With one event per chunk, each chunk ends in the frame's blank line (apps/bench, one-event-per-chunk).
  const whole = new TextDecoder('utf-8', { ignoreBOM: true });
  let splitPending = false;
  let atStart = true;
  const decode = (bytes: Uint8Array) => {
    const length = bytes.length;
    if (length === 0) return '';
    const endsWhole = bytes[length - 1]! < ASCII_LIMIT;
    const text = !splitPending && endsWhole ? whole.decode(bytes) : split.decode(bytes, STREAM);
    splitPending = !endsWhole;
    // An empty text is a character still split across chunks: the start is yet to come.
    if (!atStart || text === '') return text;
    atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  return {
    push: (bytes) => feed(decode(bytes)),
    end: () => {
      const text = split.decode();
      feed(atStart && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    },
  };
}
