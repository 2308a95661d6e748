import type { RunEvent } from '@kestrel/core';

/*
 * The core schemas rename an interaction of an unknown kind to `kind: 'unsupported'` (keeping the server's kind in
 * `originalKind`) so that `kind` narrows. On the wire that rename must be undone, or a browser would read an
 * interaction of kind "unsupported" and lose the real one.
 */
function restoreInteractionKind(output: Record<string, unknown>): Record<string, unknown> {
  const interaction = output.interaction as Record<string, unknown> | undefined;
  if (interaction?.kind !== 'unsupported' || typeof interaction.originalKind !== 'string') return output;
  const { originalKind, ...rest } = interaction;
  return { ...output, interaction: { ...rest, kind: originalKind } };
}

/** The JSON object a Kestrel server would send for this validated event. */
export function toWireObject(event: RunEvent): Readonly<Record<string, unknown>> {
  if (event.type === 'unknown') return event.raw;
  if (event.type === 'run.completed') {
    return { ...event, output: restoreInteractionKind(event.output as Record<string, unknown>) };
  }
  return event;
}

/** The wire type of an event (the server's own name for unknown types). */
export function wireType(event: RunEvent): string {
  return event.type === 'unknown' ? event.unknownType : event.type;
}

/** One event framed as server-sent events: `event:` from its type, `id:` from its seq. */
export function encodeWireEvent(event: RunEvent): string {
  return `event: ${wireType(event)}\nid: ${event.seq}\ndata: ${JSON.stringify(toWireObject(event))}\n\n`;
}
