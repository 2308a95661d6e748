/// <reference types="vite/client" />
import { parseRunRecording, RecordingFormatError, type RunRecording } from '@kestrel/core';
import { scenarioFromRecording, type Scenario } from '@kestrel/testing';

/** One file of the recordings folder, read: the recording and its scenario, or why it could not be read. */
export type RecordingFile =
  | { readonly status: 'ready'; readonly name: string; readonly recording: RunRecording; readonly scenario: Scenario }
  | { readonly status: 'unreadable'; readonly name: string; readonly problem: string };

/** `demo-run` for `../recordings/demo-run.kestrel-recording.json`. */
export function recordingName(path: string): string {
  return (path.split('/').at(-1) ?? path).replace(/\.kestrel-recording\.json$/, '');
}

/**
 * Reads the files `import.meta.glob` found, in name order. A file that is not a recording (or holds two runs) is
 * kept as `unreadable` with the reason, so its story says what is wrong instead of the atlas failing to load.
 */
export function readRecordingFiles(files: Record<string, unknown>): RecordingFile[] {
  return Object.entries(files)
    .map(([path, json]): RecordingFile => {
      const name = recordingName(path);
      try {
        const recording = parseRunRecording(json);
        return { status: 'ready', name, recording, scenario: scenarioFromRecording(recording, { name }) };
      } catch (error) {
        if (!(error instanceof RecordingFormatError) && !(error instanceof RangeError)) throw error;
        return { status: 'unreadable', name, problem: error.message };
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Every `*.kestrel-recording.json` in `stories/recordings/`: drop a downloaded recording there and it appears in
 * the atlas (docs/debugging.md).
 */
export const recordingFiles: readonly RecordingFile[] = readRecordingFiles(
  import.meta.glob<unknown>('../recordings/*.kestrel-recording.json', { eager: true, import: 'default' }),
);
