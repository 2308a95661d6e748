import type { RunSummary } from '../protocol/types.js';
import type { RunState } from '../run/run-state.js';
import type { SessionAnswer } from './session-types.js';

/**
 * Whether a listed run is further along than the settled state an entry shows: a newer attempt (answered elsewhere),
 * or its attempt settled with a later terminal event. Only forward: a listing read before this tab's own progress
 * (still live, or an earlier attempt) must not undo it. A run being followed is left to its stream, and an
 * interrupted one to `retry`.
 */
export function isBehind(state: RunState<unknown>, run: RunSummary): boolean {
  if (state.phase !== 'settled') return false;
  const { attempt, seq } = state.result;
  // An attempt settles once: the same attempt listed live was read before it settled here.
  if (run.attempt !== attempt) return run.attempt > attempt;
  return !run.live && run.result !== undefined && run.result.seq > seq;
}

/** The listing's answers of a run, as the entry keeps them; the questions of `known` answers (given here) kept. */
export function listedAnswers(run: RunSummary, known: readonly SessionAnswer[] = []): SessionAnswer[] {
  return run.answers.map(({ interactionId, attempt, answer }) => {
    const question = known.find(
      (given) => given.interactionId === interactionId && given.attempt === attempt,
    )?.question;
    return question === undefined ? { interactionId, attempt, answer } : { interactionId, attempt, answer, question };
  });
}

/**
 * `answers` with `answer` added, unless that interaction's answer of that attempt is there already; then it only
 * gives that one its question, when it has none (a listing read while the answer was on its way lists it first).
 */
export function withAnswer(answers: readonly SessionAnswer[], answer: SessionAnswer): readonly SessionAnswer[] {
  const index = answers.findIndex(
    (given) => given.interactionId === answer.interactionId && given.attempt === answer.attempt,
  );
  if (index < 0) return [...answers, answer];
  const known = answers[index]!;
  if (known.question !== undefined || answer.question === undefined) return answers;
  return answers.map((given, at) => (at === index ? { ...known, question: answer.question } : given));
}
