import { RunClientError } from '../client/run-client-error.js';

/**
 * True when the server refused an answer because that wait is over: `interaction_answered` (another tab or device
 * answered first) or `interaction_not_found` (the interaction is gone). `respond` on a run controller (and so
 * `useRun` and every session entry) then reads the run again before it rejects with this error, so the run shows
 * what it became instead of a question nobody can answer. Any other refusal (`run_in_progress`, a proxy's
 * `not_found`, `session_not_found`, ...) says nothing about the wait: the run stays WAITING, to answer again.
 *
 * @example
 * try { await run.respond(answer) } catch (error) { if (isWaitOver(error)) toast('Already answered elsewhere') }
 */
export function isWaitOver(error: unknown): error is RunClientError & { readonly runId: string } {
  return (
    error instanceof RunClientError &&
    error.runId !== null &&
    (error.code === 'interaction_answered' || error.code === 'interaction_not_found')
  );
}
