import { ProtocolError, type RunEvent } from '@kestrel/core';
import { toWireEvent } from '@kestrel/core/internal';

/** An event as it goes out: its JSON text, checked with the core schemas, and the event that text parses to. */
export interface CheckedWireEvent<E extends RunEvent = RunEvent> {
  /** The JSON text to send (an unknown event or interaction kind as the server named it). */
  readonly data: string;
  /** What a client parses `data` to. */
  readonly event: E;
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Serialises an event exactly as a helper will send it and parses that text back with `parse`, one of the core
 * parsers a client reads it with, so a helper never sends what a client would reject or, worse, misread: a
 * COMPLETED without assistant text, a seq that is not a positive integer, a field JSON cannot carry.
 *
 * @throws {ProtocolError} naming the event type, seq and field path.
 */
export function checkWireEvent<E extends RunEvent>(event: RunEvent, parse: (data: string) => E): CheckedWireEvent<E> {
  let data: string | undefined;
  try {
    data = JSON.stringify(toWireEvent(event));
  } catch (cause) {
    const record = typeof event === 'object' && event !== null ? (event as Partial<Record<string, unknown>>) : {};
    throw new ProtocolError(`the event cannot be written as JSON (${describeCause(cause)})`, {
      eventType: typeof record.type === 'string' ? record.type : undefined,
      seq: typeof record.seq === 'number' ? record.seq : undefined,
      raw: event,
    });
  }
  if (data === undefined) throw new ProtocolError('expected a JSON object', { raw: event });
  return { data, event: parse(data) };
}

/** Where a helper reports what it refused to send when the app gives no `onProtocolError`: the server's log. */
export function logProtocolError(helper: string): (error: ProtocolError) => void {
  return (error) => console.error(`[kestrel ${helper}] refused to send: ${error.message}`);
}
