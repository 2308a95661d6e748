import type { InteractionAnswer } from '../protocol/types.js';
import type { RecordedRunError, RecordingEntry, RunRecording } from './recording-types.js';

/** What redacted text is replaced with. */
export const REDACTED = '[redacted]';

type Json = Record<string, unknown>;

/** The fields every event has: kept by every redaction, so a redacted recording still replays in order. */
const ENVELOPE = new Set(['type', 'runId', 'seq', 'sessionId', 'attempt', 'messageId', 'callId', 'name']);

/** Every leaf replaced, keeping keys and value types (text `[redacted]`, numbers 0, booleans false). */
function blank(value: unknown): unknown {
  if (typeof value === 'string') return REDACTED;
  if (typeof value === 'number') return 0;
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return value.map(blank);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, blank(inner)]));
  return value;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A protocol error keeps where it happened but not the offending value, which may hold anything. */
function withoutRaw(error: RecordedRunError): RecordedRunError {
  return error.kind === 'protocol' ? { ...error, raw: null } : error;
}

/**
 * Applies `change` to every event the recording holds (SSE messages and `/result` answers) and drops what no
 * redaction can vouch for: a message whose data is not a JSON object is replaced whole, a protocol error's `raw`.
 */
function redactEvents(
  recording: RunRecording,
  name: string,
  change: (event: Json) => Json,
  answer: (answer: InteractionAnswer) => InteractionAnswer = (kept) => kept,
): RunRecording {
  const entries = recording.entries.map((entry): RecordingEntry => {
    switch (entry.type) {
      case 'message': {
        let data: unknown;
        try {
          data = JSON.parse(entry.data);
        } catch {
          return { ...entry, data: REDACTED };
        }
        return { ...entry, data: isObject(data) ? JSON.stringify(change(data)) : REDACTED };
      }
      case 'result':
        return entry.event === null ? entry : { ...entry, event: change(entry.event) };
      case 'answer':
        return { ...entry, answer: answer(entry.answer) };
      case 'error':
      case 'request-failed':
        return { ...entry, error: withoutRaw(entry.error) };
      case 'attempt':
      case 'request':
      case 'response':
      case 'connection-closed':
      case 'heartbeat-lost':
      case 'reconnect-wait':
      case 'resume':
        return entry;
      default:
        return entry satisfies never;
    }
  });
  return { ...recording, entries, redactions: [...recording.redactions, name] };
}

function editOutput(event: Json, change: (output: Json) => Json): Json {
  return event.type === 'run.completed' && isObject(event.output) ? { ...event, output: change(event.output) } : event;
}

/**
 * Removes what a person typed: every field of `message.received` beyond its envelope, and the values of the
 * answers sent (a choice keeps its option ids, which the server chose).
 */
export function redactInputs(recording: RunRecording): RunRecording {
  return redactEvents(
    recording,
    'inputs',
    (event) =>
      event.type === 'message.received'
        ? Object.fromEntries(
            Object.entries(event).map(([key, value]) => [key, ENVELOPE.has(key) ? value : blank(value)]),
          )
        : event,
    (answer) => {
      switch (answer.kind) {
        case 'approval':
          return answer.comment === undefined ? answer : { ...answer, comment: REDACTED };
        case 'text':
          return { ...answer, text: REDACTED };
        case 'form':
          return { ...answer, values: blank(answer.values) as typeof answer.values };
        case 'choice':
          return answer;
        default:
          return answer satisfies never;
      }
    },
  );
}

/**
 * Removes the model's text: text and reasoning deltas, `assistantText` (in `run.completed` and `/result`), log
 * messages and progress labels. Lengths are not kept: a draft becomes `[redacted]` per delta.
 */
export function redactTexts(recording: RunRecording): RunRecording {
  return redactEvents(recording, 'texts', (event) => {
    switch (event.type) {
      case 'text.delta':
      case 'reasoning.delta':
        return { ...event, delta: REDACTED };
      case 'log':
        return { ...event, message: REDACTED };
      case 'progress':
        return { ...event, label: REDACTED };
      default:
        return editOutput(event, (output) =>
          typeof output.assistantText === 'string' ? { ...output, assistantText: REDACTED } : output,
        );
    }
  });
}

/**
 * Replaces every value of `finalizedPayload`, of tool inputs and outputs, and of events of a type the kit does not
 * know, keeping keys and value types (so the shape can still be read, and usually still checks).
 */
export function redactPayloadValues(recording: RunRecording): RunRecording {
  return redactEvents(recording, 'payload-values', (event) => {
    switch (event.type) {
      case 'tool.started':
        return 'input' in event ? { ...event, input: blank(event.input) } : event;
      case 'tool.completed':
        return 'output' in event ? { ...event, output: blank(event.output) } : event;
      case 'run.completed':
        return editOutput(event, (output) =>
          'finalizedPayload' in output ? { ...output, finalizedPayload: blank(output.finalizedPayload) } : output,
        );
      case 'run.started':
      case 'message.received':
      case 'reasoning.delta':
      case 'text.delta':
      case 'progress':
      case 'log':
      case 'turn/end':
      case 'agent.idle':
        return event;
      default:
        return Object.fromEntries(
          Object.entries(event).map(([key, value]) => [key, ENVELOPE.has(key) ? value : blank(value)]),
        );
    }
  });
}
