import type { RunClient, RunHandle } from '../client/types.js';
import { recordRun, recordingMaxBytes } from './record-run.js';
import type { RecordRunOptions, RunRecorder } from './recording-types.js';

/** Whether a {@link RecordingClient} records the runs it starts or resumes from now on. */
export type RecordingSwitch = 'on' | 'off';

/** Options of `recordingClient`: `recordRun`'s options for every recorder, whether recording starts on, and how many record at once. */
export interface RecordingClientOptions extends RecordRunOptions {
  /** `on` (default): record from the first run; `off`: record nothing until `setRecording('on')`. */
  readonly recording?: RecordingSwitch;
  /**
   * How many recorders go on recording at once (default 1): a new one stops the oldest still recording, which keeps
   * what it has. So the recordings this client feeds hold at most `maxRecorders × maxBytes`; a stopped recorder is
   * freed once the app lets go of it.
   */
  readonly maxRecorders?: number;
}

/** A run client that records the streaming runs it starts or resumes while recording is on. Made by `recordingClient`. */
export interface RecordingClient extends RunClient {
  /** Whether runs started or resumed from now on are recorded. */
  readonly recording: RecordingSwitch;
  /** Records the runs started or resumed from now on (`on`), or no new ones (`off`); recorders already made go on. */
  setRecording(recording: RecordingSwitch): void;
}

/**
 * Wraps a run client so every streaming run it starts or resumes while recording is on is recorded with
 * `recordRun`, from its first request and across the attempts `respond()` begins. Give it to `useRun({ client })`,
 * `useSession`, `<KestrelProvider client>` or a controller: what they drive is then recorded, with no handle in your
 * hands. Each new recorder goes to `onRecorder`, and stops the oldest one still recording past `maxRecorders`
 * (default 1: the latest). A run resumed from its settled result (`resume({ result })`, a history entry) reaches
 * `onRecorder` only once it sends a request (an answer to its wait), and only if recording is still on then. `run()` (the JSON route) is not recorded.
 *
 * @example
 * const client = recordingClient(createRunClient({ baseUrl: '/api/kestrel' }), (recorder) => (latest = recorder), { redact: redactInputs });
 * const run = useRun({ client });
 * @throws {RangeError} when `maxBytes` is not a positive number or `maxRecorders` not a positive integer.
 * @throws {TypeError} when `recording` is not `on` or `off`.
 */
export function recordingClient(
  client: RunClient,
  onRecorder: (recorder: RunRecorder) => void,
  options: RecordingClientOptions = {},
): RecordingClient {
  const { recording: initially = 'on', maxRecorders = 1, ...recordOptions } = options;
  // Checked here, not at the first run: a run already started must never be lost to a bad option.
  recordingMaxBytes(recordOptions, 'recordingClient');
  if (!Number.isInteger(maxRecorders) || maxRecorders < 1)
    throw new RangeError(`recordingClient: maxRecorders must be a positive integer, got ${maxRecorders}`);
  let recording = checkedSwitch(initially);
  /** The recorders still recording, oldest first: what bounds the memory this client's listeners hold. */
  let live: RunRecorder[] = [];
  /** Hands a recorder to the app, and stops the oldest still recording past `maxRecorders`. */
  const announce = (recorder: RunRecorder) => {
    live = live.filter((older) => older.status === 'recording');
    live.push(recorder);
    for (const older of live.splice(0, Math.max(0, live.length - maxRecorders))) older.stop();
    try {
      onRecorder(recorder);
    } catch (error) {
      // The run has started: the caller still gets its handle. Reported, not rethrown: an uncaught exception
      // would end a Node process over a debugging hook.
      console.error('[kestrel recordingClient] onRecorder threw; the run goes on unaffected', error);
    }
  };
  // In the tick the handle is made, so the recording hears the first request.
  const recorded = <P>(handle: RunHandle<P>, announced: 'at-once' | 'on-first-request'): RunHandle<P> => {
    if (recording === 'off') return handle;
    const recorder = recordRun(handle, recordOptions);
    if (announced === 'at-once') {
      announce(recorder);
      return handle;
    }
    // A run resumed from its settled result (a history entry) sends nothing, and most never will: it becomes a
    // recorder of its own only once it does (an answer to its wait), so the latest recorder is a run with traffic.
    let heard = false;
    const unsubscribe = handle.subscribeTransport((event) => {
      if (heard || (event.type !== 'request' && event.type !== 'answer')) return;
      heard = true;
      unsubscribe();
      // Switched off since the entry was made: it is no recorder yet, and announcing it would stop a live one.
      if (recording === 'off') recorder.stop();
      else announce(recorder);
    });
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
    start: (start) => recorded(client.start(start), 'at-once'),
    resume: (resume) => recorded(client.resume(resume), resume.result === undefined ? 'at-once' : 'on-first-request'),
    run: (run) => client.run(run),
    fetchResult: (runId, request) => client.fetchResult(runId, request),
  };
}

function checkedSwitch(value: RecordingSwitch): RecordingSwitch {
  if (value === 'on' || value === 'off') return value;
  throw new TypeError(`recordingClient: recording must be 'on' or 'off', got ${JSON.stringify(value)}`);
}
