import { RecordingFormatError } from './recording-format-error.js';
import { runRecordingSchema } from './recording-schema.js';
import type { RunRecording } from './recording-types.js';

/**
 * Reads a recording (the parsed JSON of a `.kestrel-recording.json` file) and checks it against the version-1
 * format.
 *
 * @example
 * const recording = parseRunRecording(JSON.parse(await file.text()));
 * @throws {RecordingFormatError} naming every field that is wrong, with its path.
 */
export function parseRunRecording(value: unknown): RunRecording {
  const parsed = runRecordingSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RecordingFormatError(
    parsed.error.issues.map((issue) => ({
      path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
      message: issue.message,
    })),
  );
}
