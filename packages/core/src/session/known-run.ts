import type { RunSummary } from '../protocol/types.js';
import type { RunState } from '../run/run-state.js';
import type { SessionAnswer } from './session-types.js';

/**
 * Whether a listed run has moved on from the settled state an entry shows: live again (answered elsewhere), or
 * settled with another terminal event. A run being followed is left to its stream, and an interrupted one to `retry`.
 */
export function isBehind(state: RunState<unknown>, run: RunSummary): boolean {
  if (state.phase !== 'settled') return false;
  return run.live || (run.result !== undefined && run.result.seq !== state.result?.seq);
}

/** The listing's answers of a run, as the entry keeps them. */
export function listedAnswers(run: RunSummary): SessionAnswer[] {
  return run.answers.map(({ interactionId, attempt, answer }) => ({ interactionId, attempt, answer }));
}

/** `answers` with `answer` added, unless that interaction's answer of that attempt is there already. */
export function withAnswer(answers: readonly SessionAnswer[], answer: SessionAnswer): readonly SessionAnswer[] {
  const known = answers.some(
    (given) => given.interactionId === answer.interactionId && given.attempt === answer.attempt,
  );
  return known ? answers : [...answers, answer];
}
