import type * as z from 'zod/mini';
import type { RunController } from '../controller/create-run-controller.js';
import type { RunHandle } from '../client/types.js';
import type * as s from './recording-schema.js';

/** A recording of one run as its client saw it (docs/debugging.md#the-recording-format). Save it as JSON. */
export type RunRecording = z.output<typeof s.runRecordingSchema>;
/** One thing the client saw or did, `t` ms after the recording started; switch on `type`. */
export type RecordingEntry = z.output<typeof s.recordingEntrySchema>;
/** The `type` of a {@link RecordingEntry}. */
export type RecordingEntryType = RecordingEntry['type'];
/** A `RunError` as a recording stores it (a protocol error's `raw` is `null` when it was not a value). */
export type RecordedRunError = z.output<typeof s.recordedRunErrorSchema>;
/** Where a recording stopped keeping entries (its `maxBytes`), and how many it left out. */
export type RecordingTruncation = z.output<typeof s.recordingTruncationSchema>;
/** Phase, status, last seq and event count of the recorded run when the recording was taken. */
export type RecordingFinalState = z.output<typeof s.recordingFinalStateSchema>;

/** Changes a recording before `recordRun` hands it out, e.g. `redactTexts`; must return a recording. */
export type RecordingRedaction = (recording: RunRecording) => RunRecording;

/** What `recordRun` follows: one handle (and the attempts its `respond()` begins), or a controller (`useRun`'s `run`). */
export type RecordableRun<P = unknown> = RunHandle<P> | RunController<P>;

/** Options of `recordRun`; every field is optional. */
export interface RecordRunOptions {
  /**
   * Bound on the entries' size in bytes of JSON. Past it, later entries are left out and counted in the
   * recording's `truncated`. Default 64 MiB.
   */
  readonly maxBytes?: number;
  /**
   * Applied to every recording handed out (`recording()`, `stop()`), so what is saved or downloaded never holds
   * what it removes. Compose the helpers: `(r) => redactTexts(redactInputs(r))`.
   */
  readonly redact?: RecordingRedaction;
  /** Milliseconds on a monotonic clock, for `t`. Default `performance.now()`. */
  readonly now?: () => number;
  /** Wall-clock time, for `startedAt`. Default `Date.now()`. */
  readonly wallClock?: () => number;
}

/** A recording in progress. Made by `recordRun`. */
export interface RunRecorder {
  /** `recording` until `stop()`; then `stopped`, and nothing more is recorded. */
  readonly status: 'recording' | 'stopped';
  /** The recording so far, redacted, as a new document each call (e.g. for a "Download recording" button). */
  recording(): RunRecording;
  /** Stops listening and returns the final recording (redacted). Calling it again returns the same content. */
  stop(): RunRecording;
}
