import type { TransportEvent } from '../client/transport-event.js';
import type { RunSource } from '../client/types.js';
import type { RecordingEntry, RecordableRun, RecordRunOptions, RunRecorder, RunRecording } from './recording-types.js';
import { toRecordingEntry } from './recording-entry.js';

/** Default `maxBytes` of `recordRun`: 64 MiB of JSON. */
export const DEFAULT_RECORDING_MAX_BYTES = 64 * 1024 * 1024;

/** The `maxBytes` of `options`, checked. @throws {RangeError} when it is not a positive number. */
export function recordingMaxBytes(options: RecordRunOptions, caller: string): number {
  const maxBytes = options.maxBytes ?? DEFAULT_RECORDING_MAX_BYTES;
  if (!(maxBytes > 0)) throw new RangeError(`${caller}: maxBytes must be a positive number, got ${maxBytes}`);
  return maxBytes;
}

function isController<P>(run: RecordableRun<P>): run is Extract<RecordableRun<P>, { getHandle: unknown }> {
  return 'getHandle' in run;
}

/**
 * Records what the client sees of a run (docs/debugging.md): every SSE message with its arrival time, every
 * request with its `Last-Event-ID` and status, drops, heartbeat losses, reconnect waits, resumes, `/result`
 * fallbacks, answers and errors. Follows the run across attempts (`respond()`), and a controller across the handles
 * it follows. Start it before the run starts (or in the tick the handle is made) to hear the first request.
 *
 * @example
 * const recorder = recordRun(handle, { redact: redactInputs });
 * await handle.result;
 * download(JSON.stringify(recorder.stop()));
 * @throws {RangeError} when `maxBytes` is not a positive number.
 */
export function recordRun<P>(run: RecordableRun<P>, options: RecordRunOptions = {}): RunRecorder {
  const maxBytes = recordingMaxBytes(options, 'recordRun');
  const now = options.now ?? (() => performance.now());
  const origin = now();
  const startedAt = new Date((options.wallClock ?? Date.now)()).toISOString();
  const entries: RecordingEntry[] = [];
  let bytes = 0;
  let truncated: RunRecording['truncated'] = null;
  let status: RunRecorder['status'] = 'recording';
  /** Whose state `final` describes: the controller, or the handle of the latest attempt heard. */
  let latest: RunSource<unknown> = run;
  const stops: (() => void)[] = [];

  const onTransport = (event: TransportEvent, attempt: RunSource<unknown>): void => {
    if (status === 'stopped') return;
    if (!isController(run)) latest = attempt;
    const entry = toRecordingEntry(event, Math.max(0, Math.round((now() - origin) * 1000) / 1000));
    if (truncated !== null) {
      truncated = { ...truncated, droppedEntries: truncated.droppedEntries + 1 };
      return;
    }
    // Counted as characters of JSON (bytes for ASCII), the way the file is saved; one line per entry plus a comma.
    const size = JSON.stringify(entry).length + 1;
    if (bytes + size > maxBytes) {
      truncated = { atMs: entry.t, maxBytes, droppedEntries: 1 };
      return;
    }
    bytes += size;
    entries.push(entry);
  };

  if (isController(run)) {
    let followed: unknown = null;
    const follow = () => {
      const handle = run.getHandle();
      if (handle === followed || handle === null) return;
      followed = handle;
      // A handle `respond()` made already reports to this listener: subscribing again is a no-op.
      stops.push(handle.subscribeTransport(onTransport));
    };
    stops.push(run.subscribe(follow));
    follow();
  } else {
    stops.push(run.subscribeTransport(onTransport));
  }

  const recording = (): RunRecording => {
    const state = latest.getState();
    const document: RunRecording = {
      version: 1,
      format: 'kestrel-recording',
      startedAt,
      runId: state.runId,
      sessionId: state.sessionId,
      final: { phase: state.phase, status: state.status, lastSeq: state.lastSeq, eventCount: state.events.length },
      truncated,
      redactions: [],
      entries: entries.slice(),
    };
    return options.redact === undefined ? document : options.redact(document);
  };

  let final: RunRecording | null = null;
  return {
    get status() {
      return status;
    },
    recording: () => final ?? recording(),
    stop: () => {
      if (final === null) {
        final = recording();
        status = 'stopped';
        for (const stop of stops.splice(0)) stop();
      }
      return final;
    },
  };
}
