import { protocolParseOptions } from '../protocol/protocol-error-map.js';
import { RecordingFormatError, type RecordingIssue } from './recording-format-error.js';
import { runRecordingSchema } from './recording-schema.js';
import type { RunRecording } from './recording-types.js';

type ZodIssue = NonNullable<ReturnType<typeof runRecordingSchema.safeParse>['error']>['issues'][number];

/** The kit's words for an issue; a key this version does not know is named, as the error map cannot. */
function toIssue(issue: ZodIssue): RecordingIssue {
  const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
  const message =
    issue.code === 'unrecognized_keys'
      ? `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      : issue.message;
  return { path, message };
}

/**
 * Reads a recording (the parsed JSON of a `.kestrel-recording.json` file) and checks it against the version-1
 * format.
 *
 * @example
 * const recording = parseRunRecording(JSON.parse(await file.text()));
 * @throws {RecordingFormatError} naming every field that is wrong, with its path.
 */
export function parseRunRecording(value: unknown): RunRecording {
  const parsed = runRecordingSchema.safeParse(value, protocolParseOptions);
  if (parsed.success) return parsed.data;
  throw new RecordingFormatError(parsed.error.issues.map(toIssue));
}
