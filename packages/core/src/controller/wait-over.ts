import { RunClientError } from '../client/run-client-error.js';

/**
 * True when the server refused an answer because it no longer has that wait to answer: a `409` (say
 * `interaction_answered`: another tab or device answered first) or a `404` (`interaction_not_found`, or the run or
 * session is gone). `respond` on a run controller (and so `useRun` and every session entry) then reads the run again
 * before it rejects with this error, so the run shows what it became instead of a question nobody can answer.
 *
 * @example
 * try { await run.respond(answer) } catch (error) { if (isWaitOver(error)) toast('Already answered elsewhere') }
 */
export function isWaitOver(error: unknown): error is RunClientError & { readonly runId: string } {
  return error instanceof RunClientError && error.runId !== null && (error.status === 409 || error.status === 404);
}
