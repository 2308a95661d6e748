'use client';
import { recordingToJsonLines, type RunRecording } from '@kestrel/core';

/** How long the object URL of a download is kept: the browser has taken the file long before. */
const REVOKE_AFTER_MS = 60_000;

/** A file name from a run id, with anything a file system could stumble on replaced. */
export function recordingFileName(recording: RunRecording, extension: 'json' | 'jsonl'): string {
  const id = (recording.runId ?? 'run').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
  return extension === 'json' ? `${id}.kestrel-recording.json` : `${id}.kestrel-recording.jsonl`;
}

/** Saves text as a file through a Blob and an object URL: nothing leaves the browser. */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** "Download recording" (the JSON document `parseRunRecording` reads back) and "Download JSON Lines". */
export function DownloadRecording({ read }: { read: () => RunRecording }) {
  return (
    <span data-kestrel-inspector-part="download">
      <button
        type="button"
        onClick={() => {
          const recording = read();
          downloadText(JSON.stringify(recording), recordingFileName(recording, 'json'), 'application/json');
        }}
      >
        Download recording
      </button>{' '}
      <button
        type="button"
        onClick={() => {
          const recording = read();
          downloadText(recordingToJsonLines(recording), recordingFileName(recording, 'jsonl'), 'application/jsonl');
        }}
      >
        Download JSON Lines
      </button>
    </span>
  );
}
