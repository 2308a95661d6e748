import type { RunEvent } from '../protocol/types.js';

/**
 * Frames one event as server-sent events: `event:` from its type, `id:` from its seq, the JSON on one `data:` line.
 * An unknown event is written back exactly as the server sent it.
 *
 * @example
 * res.write(encodeSSEEvent(event));
 */
export function encodeSSEEvent(event: RunEvent): string {
  const type = event.type === 'unknown' ? event.unknownType : event.type;
  const data = event.type === 'unknown' ? event.raw : event;
  return `event: ${type}\nid: ${event.seq}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An SSE comment line, used as a keep-alive. */
export function encodeSSEComment(comment = 'keep-alive'): string {
  return `: ${comment}\n\n`;
}
