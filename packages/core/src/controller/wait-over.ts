import { RunClientError } from '../client/run-client-error.js';

/**
 * True when the server refused an answer because the run no longer waits on that interaction: any `409` (say
 * `interaction_answered`: another tab or device answered first) or a `404` with code `interaction_not_found`.
 * `respond` on a run controller (and so `useRun` and every session entry) then reads the run again before it
 * rejects with this error, so the run shows what it became instead of a question nobody can answer.
 *
 * @example
 * try { await run.respond(answer) } catch (error) { if (isWaitOver(error)) toast('Already answered elsewhere') }
 */
export function isWaitOver(error: unknown): error is RunClientError {
  return error instanceof RunClientError && (error.status === 409 || error.code === 'interaction_not_found');
}
