import type { RunCompletedEvent } from '../protocol/types.js';
import type { RunError, RunState } from './run-state.js';

/**
 * What a transition did that the world outside the state acts on, as data: {@link transitionRun} returns effects
 * and never runs them. The run handle resolves `result` and wakes whoever waits for the run id on them; the run
 * controller calls `onSettled` and `onError` on them. Nobody has to compare an old state with a new one.
 *
 * - `run-identified`: the run's id became known (the first event named it, or a resume asked for it). Whoever
 *   waits for the id (`cancel()` before `run.started`) can go on.
 * - `settled`: the attempt settled with this `run.completed`, whatever its output status (WAITING included).
 * - `failed`: the run stopped short of an outcome (`state.error`), or a settled attempt broke the protocol
 *   afterwards (the `result` it settled with is kept). Never an outcome itself.
 * - `detached`: the client stopped following before an outcome; the run goes on on the server.
 *
 * One transition can have several effects, in the order they happened (`run-identified` before `settled` when a
 * run's first event is its `run.completed`).
 */
export type RunEffect =
  | { readonly type: 'run-identified'; readonly runId: string }
  | { readonly type: 'settled'; readonly event: RunCompletedEvent }
  | { readonly type: 'failed'; readonly error: RunError }
  | { readonly type: 'detached' };

/** The `type` of a {@link RunEffect}. */
export type RunEffectType = RunEffect['type'];

/** What {@link transitionRun} returns: the next state and what happened on the way to it. */
export interface RunTransition<P = unknown> {
  readonly state: RunState<P>;
  /** Empty (one shared frozen array) when nothing outside the state needs to know. */
  readonly effects: readonly RunEffect[];
}
