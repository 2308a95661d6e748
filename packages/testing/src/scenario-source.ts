import {
  createInitialRunState,
  reduceRun,
  type PayloadSchema,
  type RetainEvents,
  type RunAction,
  type RunSource,
  type RunState,
} from '@kestrel/core';
import type { Scenario } from './scenario.js';
import { scenarioActions } from './scenario-actions.js';

/** Options of `createScenarioSource`: where to freeze the run (`upTo`, `until`), extra actions (`then`), the payload schema and `retainEvents`. */
export interface ScenarioSourceOptions<P = unknown> {
  /** Apply only the first `upTo` actions, freezing the run mid-stream. Negative counts from the end. */
  readonly upTo?: number;
  /** Stop at the first state this accepts (checked after each action), e.g. `(s) => s.phase === 'reconnecting'`. */
  readonly until?: (state: RunState<P>) => boolean;
  /** Actions applied after the scenario's, e.g. `{ type: 'client/detached' }`. */
  readonly then?: readonly RunAction[];
  /** The app's payload schema, so the COMPLETED payload is checked and typed as in a real app. */
  readonly payloadSchema?: PayloadSchema<P>;
  /** Which events `state.events` keeps, as the app chose with `createRunClient({ retainEvents })`. Default `all`. */
  readonly retainEvents?: RetainEvents;
}

/** A run state source that plays a scenario without a network: for stories, component tests and docs. */
export interface ScenarioSource<P = unknown> extends RunSource<P> {
  /** Feeds one more action through `reduceRun` and notifies subscribers. */
  dispatch(action: RunAction): void;
  /** The actions the scenario's full playback would apply, in order. */
  readonly actions: readonly RunAction[];
  /** How many of `actions` have been applied so far. */
  readonly applied: number;
  /** Applies the next `count` scenario actions (default 1); returns false once none are left. */
  step(count?: number): boolean;
}

/**
 * Builds a {@link RunSource} from a shared scenario by running `reduceRun` over {@link scenarioActions}, the same
 * way a careful client would. Framework-agnostic: works with `useRunSelector`, tests and plain scripts.
 *
 * @example
 * const streaming = createScenarioSource(getScenario('completed-text'), { until: (s) => s.draftText.length > 20 });
 * const detached = createScenarioSource(getScenario('completed-text'), { upTo: 8, then: [{ type: 'client/detached' }] });
 */
export function createScenarioSource<P = unknown>(
  scenario: Scenario,
  options: ScenarioSourceOptions<P> = {},
): ScenarioSource<P> {
  const actions = scenarioActions(scenario.steps);
  const limit =
    options.upTo === undefined
      ? actions.length
      : options.upTo < 0
        ? Math.max(0, actions.length + options.upTo)
        : Math.min(options.upTo, actions.length);
  let state = createInitialRunState<P>({ payloadSchema: options.payloadSchema, retainEvents: options.retainEvents });
  let applied = 0;
  while (applied < limit) {
    state = reduceRun(state, actions[applied] as RunAction);
    applied += 1;
    if (options.until?.(state) === true) break;
  }
  for (const action of options.then ?? []) state = reduceRun(state, action);

  const listeners = new Set<() => void>();
  const dispatch = (action: RunAction) => {
    const next = reduceRun(state, action);
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    actions,
    get applied() {
      return applied;
    },
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
    step: (count = 1) => {
      for (let i = 0; i < count; i += 1) {
        const action = actions[applied];
        if (action === undefined) return false;
        applied += 1;
        dispatch(action);
      }
      return applied < actions.length;
    },
  };
}
