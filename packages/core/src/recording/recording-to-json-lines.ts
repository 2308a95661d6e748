import type { RecordingEntry, RunRecording } from './recording-types.js';

/** A message line: the SSE frame's `data` parsed (`dataFormat: 'json'`), or kept as text when it is not JSON. */
function messageLine(entry: Extract<RecordingEntry, { type: 'message' }>): Record<string, unknown> {
  try {
    return { ...entry, data: JSON.parse(entry.data) as unknown, dataFormat: 'json' };
  } catch {
    return { ...entry, dataFormat: 'text' };
  }
}

/**
 * The recording as JSON Lines (docs/debugging.md#json-lines-export): a header line (`type: 'recording'`, the
 * document without its entries), then one line per entry in order, a message's `data` parsed when it is JSON. For
 * log tools (`jq`, a log store); every line ends with a newline.
 *
 * @example
 * await writeFile('run.jsonl', recordingToJsonLines(recorder.stop()));
 */
export function recordingToJsonLines(recording: RunRecording): string {
  const { entries, ...header } = recording;
  const lines = [JSON.stringify({ type: 'recording', ...header })];
  for (const entry of entries) lines.push(JSON.stringify(entry.type === 'message' ? messageLine(entry) : entry));
  return lines.join('\n') + '\n';
}
