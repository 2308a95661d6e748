import type { InteractionAnswer } from '../protocol/types.js';
import type { RunSource, StartRunOptions } from '../client/types.js';
import type { RetryMode } from './retry-mode.js';

/** What a person can do to a run. Stable functions: safe in effect dependencies and memoized children. */
export interface RunActions<P = unknown> {
  /** Starts a new run (a string is the input). A run still streaming is detached first, never cancelled. */
  start(input: string | StartRunOptions<P>): void;
  /** Re-attaches to a run by id, e.g. after a page reload. A no-op while that run is already followed. */
  resume(runId: string, lastSeq?: number): void;
  /**
   * Answers the WAITING interaction; follows the new attempt. Rejects (state intact) when the server refuses; when
   * the refusal says the wait is over (`isWaitOver`: answered elsewhere, or the interaction is gone), the run is
   * read again first, then it rejects.
   */
  respond(answer: InteractionAnswer): Promise<void>;
  /** Asks the server to cancel; the run settles CANCELLED from the stream. */
  cancel(): Promise<void>;
  /** Stops watching without cancelling. */
  detach(): void;
  /** After a connection error: resume the same run. After a retryable FAILED: start it again with the same input. */
  retry(): void;
  /**
   * What `retry()` would do now: `resume`, `restart`, or `null` when it would send nothing. Unlike the pure
   * `getRetryMode(state)`, it knows whether this binding holds the input a restart needs: a run resumed by id
   * (after a reload) that FAILED retryable cannot be started again by it. Offer a retry button only when non-null.
   * Read it in a selector: the input it depends on only changes together with the state.
   */
  getRetryMode(): RetryMode | null;
  /** Forgets the run and returns to `idle`. */
  reset(): void;
}

/** A run as components take it: its state source plus its actions. `createRunController` and `useRun` make one. */
export type RunBinding<P = unknown> = RunSource<P> & RunActions<P>;
