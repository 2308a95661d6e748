import type { SSEMessage } from './sse-message.js';

/**
 * Frames one message as server-sent events: `event:` and `id:` when present, then one `data:` line per line of
 * `data` (a JSON text has none, so it takes one line), and the blank line that ends the message.
 */
export function encodeSSEMessage(message: SSEMessage): string {
  const event = message.event === undefined ? '' : `event: ${message.event}\n`;
  const id = message.id === undefined ? '' : `id: ${message.id}\n`;
  return `${event}${id}data: ${message.data.split('\n').join('\ndata: ')}\n\n`;
}

/** An SSE comment line, used as a keep-alive. */
export function encodeSSEComment(comment = 'keep-alive'): string {
  return `: ${comment}\n\n`;
}
