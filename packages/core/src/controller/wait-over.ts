import { RunClientError } from '../client/run-client-error.js';

/**
 * True when the server refused an answer because that wait is over: `interaction_answered` (another tab or device
 * answered first), `interaction_not_found` (the interaction is gone), or `run_not_found` / `session_not_found` (the
 * run or its session is gone: nothing can answer it any more). `respond` on a run controller (and so `useRun` and
 * every session entry) then reads the run again before it rejects with this error, so the run shows what it became
 * (or that it is gone) instead of a question nobody can answer, and a session's queued message is not held behind
 * it. Any other refusal (`run_in_progress`, a proxy's `not_found`, ...) says nothing about the wait: the run stays
 * WAITING, to answer again.
 *
 * @example
 * try { await run.respond(answer) } catch (error) { if (isWaitOver(error)) toast('Already answered elsewhere') }
 */
export function isWaitOver(error: unknown): error is RunClientError & { readonly runId: string } {
  return (
    error instanceof RunClientError &&
    error.runId !== null &&
    (error.code === 'interaction_answered' ||
      error.code === 'interaction_not_found' ||
      error.code === 'run_not_found' ||
      error.code === 'session_not_found')
  );
}

/**
 * Why a wait was over, for the person: `answered-elsewhere` (`interaction_answered`: another tab or device answered
 * first) or `gone` (the interaction, the run or its session no longer exists).
 */
export function waitOverReason(error: RunClientError): 'answered-elsewhere' | 'gone' {
  return error.code === 'interaction_answered' ? 'answered-elsewhere' : 'gone';
}
