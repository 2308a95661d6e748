import { encodeSSEMessage } from '../sse/encode-sse.js';
import type { RunEvent } from './types.js';

/** An event object as a server writes it, before any parsing: `type`, `seq` and the rest of its fields. */
export interface WireEventObject {
  readonly type: string;
  readonly seq: number;
}

/**
 * The JSON object a Kestrel server sends for a validated event. Parsing renames an unsupported interaction's kind
 * to `unsupported` (so `kind` narrows); this undoes it, and an unknown event comes back as its `raw` object.
 */
export function toWireEvent(event: RunEvent): unknown {
  if (event.type === 'unknown') return event.raw;
  if (
    event.type !== 'run.completed' ||
    event.output.status !== 'WAITING' ||
    event.output.interaction.kind !== 'unsupported'
  ) {
    return event;
  }
  const { originalKind, ...interaction } = event.output.interaction;
  return { ...event, output: { ...event.output, interaction: { ...interaction, kind: originalKind } } };
}

/**
 * Only two parsed events differ from what the server sent: an unknown event (kept in `raw`) and an unsupported
 * interaction (its kind kept in `originalKind`). Read loosely, so that an unparsed object, which may be
 * malformed on purpose (a test server's scenario), is never mistaken for one and never throws.
 */
function isReshapedByParsing(event: RunEvent | WireEventObject): event is RunEvent {
  const loose = event as {
    type: string;
    unknownType?: unknown;
    raw?: unknown;
    output?: { status?: unknown; interaction?: { kind?: unknown; originalKind?: unknown } };
  };
  if (loose.type === 'unknown') return typeof loose.unknownType === 'string' && 'raw' in loose;
  const interaction =
    loose.type === 'run.completed' && loose.output?.status === 'WAITING' ? loose.output.interaction : undefined;
  return interaction?.kind === 'unsupported' && typeof interaction.originalKind === 'string';
}

/**
 * Frames one event as server-sent events: `event:` from its type, `id:` from its seq, the JSON on one `data:` line.
 * What goes out is what the server sent: a parsed unknown event is written back from `raw`, an unsupported
 * interaction with its original `kind`. An unparsed event object (a test server's scenario step) is written as is.
 *
 * @example
 * res.write(encodeSSEEvent(event));
 */
export function encodeSSEEvent(event: RunEvent | WireEventObject): string {
  if (!isReshapedByParsing(event))
    return encodeSSEMessage({ event: event.type, id: String(event.seq), data: JSON.stringify(event) });
  const type = event.type === 'unknown' ? event.unknownType : event.type;
  return encodeSSEMessage({ event: type, id: String(event.seq), data: JSON.stringify(toWireEvent(event)) });
}
