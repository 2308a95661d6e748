import {
  getRetryMode,
  RunClientError,
  type InteractionAnswer,
  type RetryMode,
  type RunAction,
  type RunActions,
  type RunBinding,
} from '@kestrel/core';
import type { Scenario } from './scenario.js';
import { scenarioActions } from './scenario-actions.js';
import { createScenarioSource, type ScenarioSource, type ScenarioSourceOptions } from './scenario-source.js';

/** Options of `createScenarioRun`: freeze points and payload schema as for a source, plus how `respond` behaves. */
export interface ScenarioRunOptions<P = unknown> extends ScenarioSourceOptions<P> {
  /** When set, `respond` rejects with this message and leaves the state as it was (a server refusing the answer). */
  readonly rejectAnswer?: string;
  /** How long `respond` takes before it settles (ms). Default 0. */
  readonly respondDelayMs?: number;
  /**
   * Another tab answered first: `respond` plays the continuation that answer started (what a run read again shows)
   * and rejects with the server's `409 interaction_answered`, as a run controller does.
   */
  readonly answeredElsewhere?: boolean;
  /**
   * The run was resumed by id (e.g. after a reload), so, like a run controller, the fixture holds no start input:
   * `getRetryMode()` is `null` where only a restart would do, and `retry()` then replays nothing. Default false.
   */
  readonly resumed?: boolean;
  /** Called with every action a person takes, for tests and the Storybook actions panel. */
  readonly onAction?: (name: keyof RunActions, ...args: unknown[]) => void;
}

/** A scenario playing in memory, with actions: what components take as `run`. */
export interface ScenarioRun<P = unknown> extends RunBinding<P> {
  readonly source: ScenarioSource<P>;
}

/**
 * A {@link RunBinding} over {@link createScenarioSource}: `respond` plays the scenario's continuation (the attempt
 * after the answer), `detach` detaches, and `start`/`resume` replay the scenario, as does `retry` when
 * `getRetryMode()` says it would act (a restart plays the scenario's `retry` when it has one).
 * No network and no timers: for component tests and static stories.
 *
 * @example
 * render(<RunView run={createScenarioRun(getScenario('waiting-approval'))} />);
 */
export function createScenarioRun<P = unknown>(
  scenario: Scenario,
  options: ScenarioRunOptions<P> = {},
): ScenarioRun<P> {
  const source = createScenarioSource<P>(scenario, options);
  const replay = (actions: readonly RunAction[]) => {
    for (const action of actions) source.dispatch(action);
  };
  const restart = () => replay(scenarioActions(scenario.steps));
  const report = options.onAction ?? (() => undefined);
  let resumed = options.resumed === true;
  const retryMode = (): RetryMode | null => {
    const mode = getRetryMode(source.getState());
    return mode === 'restart' && resumed ? null : mode;
  };
  return {
    source,
    getState: source.getState,
    subscribe: source.subscribe,
    start: (input) => {
      report('start', input);
      resumed = false;
      restart();
    },
    resume: (runId, lastSeq) => {
      report('resume', runId, lastSeq);
      restart();
    },
    retry: () => {
      report('retry');
      const mode = retryMode();
      // Starting again plays the scenario's retry when it has one, as the mock Kestrel does.
      if (mode === 'restart' && scenario.retry !== undefined) replay(scenarioActions(scenario.retry.steps));
      else if (mode !== null) restart();
    },
    getRetryMode: retryMode,
    respond: async (answer: InteractionAnswer) => {
      report('respond', answer);
      if ((options.respondDelayMs ?? 0) > 0)
        await new Promise((resolve) => setTimeout(resolve, options.respondDelayMs));
      if (options.rejectAnswer !== undefined) throw new Error(options.rejectAnswer);
      const continuation = scenario.continuation;
      if (continuation === undefined) throw new Error(`Scenario "${scenario.name}" has no continuation to answer`);
      const [, ...rest] = scenarioActions(continuation.steps);
      replay([{ type: 'client/start-requested', mode: 'respond' }, ...rest]);
      if (options.answeredElsewhere === true) {
        const message = 'POST /v1/sessions/…/interactions/…: HTTP 409 interaction_answered';
        const detail = { kind: 'http', message, status: 409, code: 'interaction_answered' } as const;
        throw new RunClientError(detail, { runId: source.getState().runId });
      }
    },
    cancel: async () => {
      report('cancel');
    },
    detach: () => {
      report('detach');
      source.dispatch({ type: 'client/detached' });
    },
    reset: () => {
      // The reducer has no way back to idle; a fixture only reports the wish.
      report('reset');
    },
  };
}
