import type { ClientAction, RecordingEntry, RunError, RunEvent } from '@kestrel/core';

type WithoutTime<T> = T extends unknown ? Omit<T, 't'> : never;

/**
 * Something the client itself went through, shown between the server's events: a recording's entries other than
 * SSE messages (requests, responses, drops, heartbeat losses, reconnect waits, resumes, answers, errors), or,
 * without a recording, the error the run ended in. Not sent by the server, so it has no seq.
 */
export type ClientHappening =
  | WithoutTime<Exclude<RecordingEntry, { type: 'message' | 'error' }>>
  | { readonly type: 'error'; readonly error: RunError };

/** The `type` of a `ClientHappening`. */
export type ClientHappeningType = ClientHappening['type'];

/** One row of the inspector's timeline: an event the server sent, an SSE message the client refused, or a happening. */
export type TimelineEntry =
  | {
      readonly kind: 'event';
      readonly event: RunEvent;
      /** Milliseconds since the recording (or the inspector) started; `null` when not known. */
      readonly atMs: number | null;
      /** Bytes of the SSE message's data as received; `null` to count the event's JSON instead. */
      readonly bytes: number | null;
    }
  | {
      /** An SSE message that is no valid event (a protocol error follows it): shown as received. */
      readonly kind: 'invalid';
      readonly message: { readonly event: string | null; readonly id: string | null; readonly data: string };
      readonly problem: string;
      readonly atMs: number | null;
      readonly bytes: number;
    }
  | {
      readonly kind: 'client';
      readonly happening: ClientHappening;
      readonly atMs: number | null;
      /** What the run reducer is given for it when the timeline is replayed; `null` when it changes no state. */
      readonly action: ClientAction | RunEvent | null;
    };

/** The event type a timeline entry is filtered by: the event's own type, `invalid` or `client`. */
export function entryType(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'event':
      return entry.event.type === 'unknown' ? entry.event.unknownType : entry.event.type;
    case 'invalid':
      return 'invalid';
    case 'client':
      return 'client';
    default:
      return entry satisfies never;
  }
}

const encoder = new TextEncoder();

/** UTF-8 length of a string: what an SSE message's data weighs on the wire. */
export const byteLength = (text: string) => encoder.encode(text).length;

/** The size shown for an entry, in bytes: as received when recorded, else the UTF-8 length of the event's JSON. */
export function entryBytes(entry: TimelineEntry): number | null {
  switch (entry.kind) {
    case 'client':
      return null;
    case 'invalid':
      return entry.bytes;
    case 'event':
      return entry.bytes ?? byteLength(JSON.stringify(entry.event.type === 'unknown' ? entry.event.raw : entry.event));
    default:
      return entry satisfies never;
  }
}

/** The JSON shown for a selected entry: what the server sent (an unknown event's own object), or the happening. */
export function entryJson(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'client':
      return JSON.stringify(entry.happening, null, 2);
    case 'invalid':
      return JSON.stringify(entry.message, null, 2);
    case 'event':
      return JSON.stringify(entry.event.type === 'unknown' ? entry.event.raw : entry.event, null, 2);
    default:
      return entry satisfies never;
  }
}
