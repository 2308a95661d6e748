import { toWireEvent } from '../protocol/encode-run-event.js';
import type { TransportEvent } from '../client/transport-event.js';
import type { RunError } from '../run/run-state.js';
import type { RecordedRunError, RecordingEntry } from './recording-types.js';

/** A protocol error's `raw` may be anything (`undefined` too): stored as JSON, `null` when it is not a value. */
function storedError(error: RunError): RecordedRunError {
  return error.kind === 'protocol'
    ? { ...error, path: [...error.path], raw: error.raw === undefined ? null : error.raw }
    : error;
}

/** The recording entry for a transport event heard `t` ms after the recording started. */
export function toRecordingEntry(event: TransportEvent, t: number): RecordingEntry {
  switch (event.type) {
    case 'message':
      return {
        t,
        type: 'message',
        event: event.message.event ?? null,
        id: event.message.id ?? null,
        data: event.message.data,
      };
    case 'result':
      return {
        t,
        type: 'result',
        reason: event.reason,
        event: event.event === null ? null : (toWireEvent(event.event) as Record<string, unknown>),
      };
    case 'request-failed':
    case 'error':
      return { t, ...event, error: storedError(event.error) };
    case 'attempt':
    case 'request':
    case 'response':
    case 'connection-closed':
    case 'heartbeat-lost':
    case 'reconnect-wait':
    case 'resume':
    case 'answer':
      return { t, ...event };
    default:
      return event satisfies never;
  }
}
