import { recordRun, type RunClient, type RunHandle, type RunRecorder } from '@kestrel/core';

/** A run client that records the runs it starts or resumes while recording is on. */
export interface RecordingClient extends RunClient {
  /** Records the runs started or resumed from now on (`true`), or stops recording new ones (`false`). */
  setRecording(on: boolean): void;
}

/**
 * The demo's run client, recording every run it starts or resumes while recording is on: `recordRun` begins in the
 * tick the handle is made, so the recording holds the first request, and it follows the attempts that `respond()`
 * begins. Each new recorder is handed to `onRecorder` (the inspector shows the latest).
 */
export function recordingClient(client: RunClient, onRecorder: (recorder: RunRecorder) => void): RecordingClient {
  let recording = false;
  const recorded = <P>(handle: RunHandle<P>): RunHandle<P> => {
    if (recording) onRecorder(recordRun(handle));
    return handle;
  };
  return {
    ...client,
    setRecording: (on) => {
      recording = on;
    },
    start: (options) => recorded(client.start(options)),
    resume: (options) => recorded(client.resume(options)),
  };
}
