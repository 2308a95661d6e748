import type { RunClient, RunHandle } from '../client/types.js';
import { recordRun, recordingMaxBytes } from './record-run.js';
import type { RecordRunOptions, RunRecorder } from './recording-types.js';

/** Whether a {@link RecordingClient} records the runs it starts or resumes from now on. */
export type RecordingSwitch = 'on' | 'off';

/** Options of `recordingClient`: `recordRun`'s options for every recorder, and whether recording starts on. */
export interface RecordingClientOptions extends RecordRunOptions {
  /** `on` (default): record from the first run; `off`: record nothing until `setRecording('on')`. */
  readonly recording?: RecordingSwitch;
}

/** A run client that records the runs it starts or resumes while recording is on. Made by `recordingClient`. */
export interface RecordingClient extends RunClient {
  /** Whether runs started or resumed from now on are recorded. */
  readonly recording: RecordingSwitch;
  /** Records the runs started or resumed from now on (`on`), or no new ones (`off`); recorders already made go on. */
  setRecording(recording: RecordingSwitch): void;
}

/**
 * Wraps a run client so every run it starts or resumes while recording is on is recorded with `recordRun`, from its
 * first request and across the attempts `respond()` begins. Give it to `useRun({ client })`, `useSession`,
 * `<KestrelProvider client>` or a controller: what they drive is then recorded, with no handle in your hands.
 * Each new recorder goes to `onRecorder`; `stop()` the ones you no longer need (each is bounded by `maxBytes`).
 *
 * @example
 * const client = recordingClient(createRunClient({ baseUrl: '/api/kestrel' }), (recorder) => (latest = recorder), { redact: redactInputs });
 * const run = useRun({ client });
 * @throws {RangeError} when `maxBytes` is not a positive number.
 * @throws {TypeError} when `recording` is not `on` or `off`.
 */
export function recordingClient(
  client: RunClient,
  onRecorder: (recorder: RunRecorder) => void,
  options: RecordingClientOptions = {},
): RecordingClient {
  const { recording: initially = 'on', ...recordOptions } = options;
  // Checked here, not at the first run: a run already started must never be lost to a bad option.
  recordingMaxBytes(recordOptions, 'recordingClient');
  let recording = checkedSwitch(initially);
  // In the tick the handle is made, so the recording hears the first request.
  const recorded = <P>(handle: RunHandle<P>): RunHandle<P> => {
    if (recording === 'off') return handle;
    const recorder = recordRun(handle, recordOptions);
    try {
      onRecorder(recorder);
    } catch (error) {
      // The run has started: the caller still gets its handle, and the app's error is reported, not swallowed.
      queueMicrotask(() => {
        throw error;
      });
    }
    return handle;
  };
  return {
    get recording() {
      return recording;
    },
    setRecording: (next) => {
      recording = checkedSwitch(next);
    },
    options: client.options,
    start: (start) => recorded(client.start(start)),
    resume: (resume) => recorded(client.resume(resume)),
    run: (run) => client.run(run),
    fetchResult: (runId, request) => client.fetchResult(runId, request),
  };
}

function checkedSwitch(value: RecordingSwitch): RecordingSwitch {
  if (value === 'on' || value === 'off') return value;
  throw new TypeError(`recordingClient: recording must be 'on' or 'off', got ${JSON.stringify(value)}`);
}
