import {
  parseRunCompletedEvent,
  parseSSEMessage,
  ProtocolError,
  type RecordingEntry,
  type RunAction,
  type RunError,
  type RunRecording,
} from '@kestrel/core';
import { actionForError } from './timeline-from-state.js';
import { byteLength, type TimelineEntry } from './timeline-entry.js';

// The responses that open an event stream: a new run (POST …/sessions/{id}/runs) or a resume (GET …/runs/{id}/events).
const STREAM_PATH = /(?:\/sessions\/[^/]+\/runs|\/runs\/[^/]+\/events)$/;

function fromMessage(entry: Extract<RecordingEntry, { type: 'message' }>): TimelineEntry {
  const message = { event: entry.event, id: entry.id, data: entry.data };
  try {
    const event = parseSSEMessage({ event: entry.event ?? undefined, id: entry.id ?? undefined, data: entry.data });
    return { kind: 'event', event, atMs: entry.t, bytes: byteLength(entry.data) };
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { kind: 'invalid', message, problem: error.message, atMs: entry.t, bytes: byteLength(entry.data) };
  }
}

/** The reducer action a happening stands for, as the run client dispatched it; `null` for one that changes no state. */
function actionFor(entry: Exclude<RecordingEntry, { type: 'message' }>): RunAction | null {
  switch (entry.type) {
    case 'attempt':
      return {
        type: 'client/start-requested',
        mode: entry.mode,
        runId: entry.runId ?? undefined,
        lastSeq: entry.lastSeq,
      };
    case 'response':
      return entry.status >= 200 && entry.status < 300 && STREAM_PATH.test(entry.path.split('?')[0] ?? '')
        ? { type: 'client/connected' }
        : null;
    case 'reconnect-wait':
      return { type: 'client/reconnecting', attempt: entry.attempt, delayMs: entry.delayMs, reason: entry.reason };
    case 'result':
      if (entry.event === null) return null;
      try {
        return parseRunCompletedEvent(entry.event);
      } catch {
        return null; // the client refused it too, and says so in the error entry that follows
      }
    case 'error':
      return actionForError(entry.error as RunError);
    case 'request':
    case 'request-failed':
    case 'connection-closed':
    case 'heartbeat-lost':
    case 'resume':
    case 'answer':
      return null;
    default:
      return entry satisfies never;
  }
}

function fromEntry(entry: RecordingEntry): TimelineEntry {
  if (entry.type === 'message') return fromMessage(entry);
  const { t, ...happening } = entry;
  if (happening.type === 'error') {
    return {
      kind: 'client',
      happening: { type: 'error', error: happening.error as RunError },
      atMs: t,
      action: actionFor(entry),
    };
  }
  return { kind: 'client', happening, atMs: t, action: actionFor(entry) };
}

/**
 * The timeline of a recording: each SSE message parsed as the client parsed it (one it refused kept as received),
 * each of the client's own happenings between them, at the times they were recorded. Grows in place when a later
 * copy of the same recording (a recorder's `recording()`) has more entries.
 */
export class RecordingTimeline {
  readonly entries: TimelineEntry[] = [];
  generation = 0;
  #startedAt: string | null = null;
  #taken = 0;

  /** Takes in the recording; returns whether the timeline changed. */
  update(recording: RunRecording): boolean {
    const startedOver = recording.startedAt !== this.#startedAt || recording.entries.length < this.#taken;
    if (startedOver) {
      this.entries.length = 0;
      this.generation += 1;
      this.#taken = 0;
      this.#startedAt = recording.startedAt;
    }
    const before = this.entries.length;
    for (let index = this.#taken; index < recording.entries.length; index++) {
      this.entries.push(fromEntry(recording.entries[index] as RecordingEntry));
    }
    this.#taken = recording.entries.length;
    return startedOver || this.entries.length !== before;
  }
}
