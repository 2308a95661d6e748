import type { RunState } from '../run/run-state.js';

/** What `retry()` would do for a state: `resume` the same run, `restart` it with the same input, or nothing. */
export type RetryMode = 'resume' | 'restart';

/**
 * Decides how a run can be retried, so a UI can show a retry button only when it means something.
 * A connection problem (transport, timeout, truncated stream, an HTTP error that may pass) resumes the run it
 * happened to when the run id is known, and starts again otherwise; a FAILED output marked `retryable` starts
 * again. A protocol error, any other 4xx or 3xx answer, or any other outcome is not retried: sending the same
 * request would only repeat it.
 *
 * @example
 * const mode = getRetryMode(state); // 'resume' | 'restart' | null
 */
export function getRetryMode(state: RunState<unknown>): RetryMode | null {
  switch (state.phase) {
    case 'error': {
      const error = state.error;
      if (error.kind === 'protocol') return null;
      // An HTTP answer that the same request can change: a server error, 408 (timeout), 409 (conflict: the session's
      // live run, `run_in_progress`, settles in time), 425 (too early) or 429 (too many requests). Any other 4xx (a
      // wrong URL, no authorisation, a refused body) or an unfollowed redirect would only repeat itself.
      if (error.kind === 'http' && error.status < 500 && ![408, 409, 425, 429].includes(error.status)) return null;
      return state.runId !== null ? 'resume' : 'restart';
    }
    case 'settled':
      return state.status === 'FAILED' && state.output.error.retryable === true ? 'restart' : null;
    case 'idle':
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
    case 'detached':
      return null;
    default:
      return state satisfies never;
  }
}
