import type { RunEvent } from '../protocol/types.js';

/**
 * The JSON object a Kestrel server sends for a validated event. Parsing renames an unsupported interaction's kind
 * to `unsupported` (so `kind` narrows); this undoes it, and an unknown event comes back as its `raw` object.
 */
export function toWireEvent(event: RunEvent): unknown {
  if (event.type === 'unknown') return event.raw;
  if (event.type !== 'run.completed' || event.output.status !== 'WAITING' || event.output.interaction.kind !== 'unsupported') {
    return event;
  }
  const { originalKind, ...interaction } = event.output.interaction;
  return { ...event, output: { ...event.output, interaction: { ...interaction, kind: originalKind } } };
}

/**
 * Frames one event as server-sent events: `event:` from its type, `id:` from its seq, the JSON on one `data:` line.
 * What goes out is what the server sent: an unknown event is written back from `raw`, an unsupported interaction
 * with its original `kind`.
 *
 * @example
 * res.write(encodeSSEEvent(event));
 */
export function encodeSSEEvent(event: RunEvent): string {
  const type = event.type === 'unknown' ? event.unknownType : event.type;
  return `event: ${type}\nid: ${event.seq}\ndata: ${JSON.stringify(toWireEvent(event))}\n\n`;
}

/** An SSE comment line, used as a keep-alive. */
export function encodeSSEComment(comment = 'keep-alive'): string {
  return `: ${comment}\n\n`;
}
