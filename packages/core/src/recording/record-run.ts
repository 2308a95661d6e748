import type { RecordableRun, RecordRunOptions, RunRecorder } from './recording-types.js';

/** Default `maxBytes` of `recordRun`: 64 MiB of JSON. */
export const DEFAULT_RECORDING_MAX_BYTES = 64 * 1024 * 1024;

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
  void run;
  void options;
  throw new Error('recordRun: not implemented yet');
}
