import type { RunRecording } from './recording-types.js';

/**
 * The recording as JSON Lines (docs/debugging.md#json-lines-export): a header line, then one line per entry, a
 * message's `data` parsed into `event` when it is JSON. For log tools (`jq`, a log store); ends with a newline.
 */
export function recordingToJsonLines(recording: RunRecording): string {
  void recording;
  return '';
}
