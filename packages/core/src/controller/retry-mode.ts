import type { RunState } from '../run/run-state.js';

/** What `retry()` would do for a state: `resume` the same run, `restart` it with the same input, or nothing. */
export type RetryMode = 'resume' | 'restart';

/**
 * Decides how a run can be retried, so a UI can show a retry button only when it means something.
 * A connection problem (transport, timeout, truncated stream, HTTP error) resumes the run it happened to when the
 * run id is known, and starts again otherwise; a FAILED output marked `retryable` starts again. A protocol error
 * or any other outcome is not retried: sending the same request would only repeat it.
 *
 * @example
 * const mode = getRetryMode(state); // 'resume' | 'restart' | null
 */
export function getRetryMode(state: RunState<unknown>): RetryMode | null {
  switch (state.phase) {
    case 'error': {
      const kind = state.error?.kind;
      if (kind === undefined || kind === 'protocol') return null;
      return state.runId !== null ? 'resume' : 'restart';
    }
    case 'settled':
      return state.output?.status === 'FAILED' && state.output.error.retryable === true ? 'restart' : null;
    case 'idle':
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
    case 'detached':
      return null;
    default:
      return state.phase satisfies never;
  }
}
