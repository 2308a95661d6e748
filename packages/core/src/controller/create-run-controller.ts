import { addListener, callAll, callSafely } from '../callbacks.js';
import type { RunClient, RunHandle, StartRunOptions } from '../client/types.js';
import { RunUsageError } from '../client/run-usage-error.js';
import type { InteractionAnswer, ResponseFormat, RunCompletedEvent } from '../protocol/types.js';
import type { PayloadSchema } from '../run/payload.js';
import type { RunEffect } from '../run/run-effect.js';
import { createInitialRunState, isFollowing, type RunError, type RunState } from '../run/run-state.js';
import { getRetryMode, type RetryMode } from './retry-mode.js';
import type { RunBinding } from './run-actions.js';
import { isWaitOver } from './wait-over.js';

/** Options of {@link createRunController}; `setOptions` replaces them without restarting the run. */
export interface RunControllerOptions<P = unknown> {
  /** Sends the requests. Read at each action, so replacing it never restarts a run. */
  readonly client: RunClient;
  /** The session new runs start in; defaults to the client's (`new`). */
  readonly sessionId?: string | undefined;
  /** Structured output to request on every start. */
  readonly responseFormat?: ResponseFormat | undefined;
  /** Checks `finalizedPayload`; its output type becomes `state.payload.value`. */
  readonly payloadSchema?: PayloadSchema<P> | undefined;
  /**
   * Once per settled attempt (WAITING included), with its `run.completed` event; reading the attempt it reported
   * last again (an answer refused as too late, a `resume` of that run) does not report it twice, until `reset()`.
   */
  readonly onSettled?: ((event: RunCompletedEvent) => void) | undefined;
  /** Once per error that stopped the run short of an outcome (`state.error`). */
  readonly onError?: ((error: RunError) => void) | undefined;
}

/** One object that follows a run across attempts, resumes, retries and resets. See {@link createRunController}. */
export interface RunController<P = unknown> extends RunBinding<P> {
  /** Replaces the options. The next action and the next callback use them; a run in progress is left alone. */
  setOptions(options: RunControllerOptions<P>): void;
  /** The idle state, the same object every time: what a server render shows. */
  getServerState(): RunState<P>;
  /**
   * Follows a run that has already settled, from its terminal event (a session listing's `result`): its state is
   * the settled one at once and nothing is sent. A WAITING one can be answered; `retry()` cannot restart it (the
   * binding never had its input).
   */
  resumeSettled(result: RunCompletedEvent): void;
  /** The handle of the attempt being followed, or `null` before any run and after `reset()`. */
  getHandle(): RunHandle<P> | null;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Follows one run for a UI, whatever happens to it: WAITING → `respond` → the new attempt, reloads (`resume`),
 * `cancel` versus `detach`, `retry` and `reset`. Framework-agnostic: `useRun` is a thin React binding over it.
 *
 * `getState` and `subscribe` work unbound and always describe the attempt being followed (an idle state before
 * any run); every action is a stable function. `onSettled` and `onError` fire once per occurrence, and always
 * the ones given last to `setOptions`.
 *
 * @example
 * const run = createRunController({ client, onSettled: (event) => console.log(event.output.status) });
 * run.subscribe(() => render(run.getState()));
 * run.start('Summarise the report');
 */
export function createRunController<P = unknown>(initialOptions: RunControllerOptions<P>): RunController<P> {
  let options = initialOptions;
  const idle = createInitialRunState<P>({ payloadSchema: initialOptions.payloadSchema });
  const listeners = new Set<() => void>();
  let handle: RunHandle<P> | null = null;
  let unfollow: (() => void) | null = null;
  /** The run id asked for by `resume`, known before the server names it in `run.started`. */
  let requestedRunId: string | null = null;
  /** What started the followed run, for `retry` after a retryable failure; `null` for a run resumed by id. */
  let lastStart: StartRunOptions<P> | null = null;
  /** Changes whenever the followed run is replaced, so a late `respond` cannot take over a newer run. */
  let generation = 0;

  const getState = (): RunState<P> => (handle === null ? idle : handle.getState());

  const notify = (): void => callAll(listeners);

  /** The outcome reported last: reading the run again (an answer refused as too late) may settle it once more. */
  let reported: RunCompletedEvent | null = null;

  /** The one place the app hears what happened: an effect of the followed attempt's transitions. */
  const report = (effect: RunEffect): void => {
    if (effect.type === 'settled') {
      const { event } = effect;
      const last = reported;
      if (last?.runId === event.runId && last.attempt === event.attempt && last.seq === event.seq) return;
      reported = event;
      callSafely(options.onSettled, event);
    }
    if (effect.type === 'failed') callSafely(options.onError, effect.error);
  };

  /** What happened before this controller followed the attempt (a `respond` handle may settle first), once. */
  const reportSoFar = (state: RunState<P>): void => {
    if (state.phase === 'settled') report({ type: 'settled', event: state.result });
    if (state.phase === 'error') report({ type: 'failed', error: state.error });
  };

  const follow = (next: RunHandle<P> | null): void => {
    unfollow?.();
    unfollow = null;
    handle = next;
    if (next !== null) {
      const unsubscribeEffects = next.subscribeEffects((effect) => {
        if (handle === next) report(effect);
      });
      const unsubscribe = next.subscribe(() => {
        if (handle === next) notify();
      });
      unfollow = () => {
        unsubscribeEffects();
        unsubscribe();
      };
      reportSoFar(next.getState());
    }
    notify();
  };

  /** Stops the attempt being followed before another takes its place. Detach, never cancel: that is the app's call. */
  const release = (): void => {
    generation += 1;
    if (handle !== null && isFollowing(handle.getState().phase)) handle.detach();
  };

  const startWith = (request: StartRunOptions<P>): void => {
    // First: a start the client refuses (a usage error, thrown) leaves the run followed until now as it was.
    const next = options.client.start(request);
    release();
    const { signal: _signal, ...replayable } = request;
    lastStart = replayable;
    requestedRunId = null;
    follow(next);
  };

  /** `getRetryMode(state)`, narrowed to what this controller can do: a restart needs the input that started the run. */
  const retryMode = (state: RunState<P>): RetryMode | null => {
    const mode = getRetryMode(state);
    // `resume` comes only with a run id (getRetryMode), which is all it needs.
    return mode === 'restart' && lastStart === null ? null : mode;
  };

  /** Follows a run by id: from `lastSeq`, or settled from its terminal event (`result`), else its latest attempt. */
  const resumeRun = (runId: string, lastSeq?: number, result?: RunCompletedEvent, otherRun = false): void => {
    const next = options.client.resume<P>(
      definedOnly({ runId, lastSeq, result, payloadSchema: options.payloadSchema }),
    );
    // Another run's input must never be replayed for this one (forgotten only once the client took the resume).
    if (otherRun) lastStart = null;
    release();
    requestedRunId = runId;
    follow(next);
  };

  const controller: RunController<P> = {
    getState,
    getServerState: () => idle,
    getHandle: () => handle,
    subscribe: (listener) => addListener(listeners, listener),
    setOptions(next) {
      options = next;
    },
    start(input) {
      const request = typeof input === 'string' ? { input } : input;
      startWith(
        definedOnly({
          sessionId: options.sessionId,
          responseFormat: options.responseFormat,
          payloadSchema: options.payloadSchema,
          ...definedOnly(request),
        }),
      );
    },
    resume(runId, lastSeq) {
      const state = getState();
      const current = state.runId ?? requestedRunId;
      // Resuming the run already followed would open a second connection to it (StrictMode mounts twice).
      if (handle !== null && current === runId && (isFollowing(state.phase) || state.phase === 'settled')) return;
      // Following the same run again keeps the input a restart sends.
      resumeRun(runId, lastSeq, undefined, current !== runId);
    },
    resumeSettled(result) {
      resumeRun(result.runId, undefined, result, true);
    },
    async respond(answer: InteractionAnswer) {
      const current = handle;
      if (current === null)
        throw new RunUsageError('not-waiting', 'Only a run settled WAITING can be answered; no run has started');
      const asked = generation;
      const next = await current.respond(answer).catch((error: unknown) => {
        // The wait is over (answered in another tab, say): read the run again so it shows what it became.
        if (isWaitOver(error) && asked === generation) resumeRun(error.runId);
        throw error;
      });
      if (asked !== generation || handle !== current) {
        // The app started, resumed or reset meanwhile: the new attempt is not what it follows any more.
        next.detach();
        return;
      }
      follow(next);
    },
    async cancel() {
      await handle?.cancel();
    },
    detach() {
      generation += 1;
      handle?.detach();
    },
    retry() {
      const state = getState();
      const mode = retryMode(state);
      if (mode === 'resume' && state.runId !== null) resumeRun(state.runId);
      else if (mode === 'restart' && lastStart !== null) startWith(lastStart);
    },
    getRetryMode: () => retryMode(getState()),
    reset() {
      release();
      requestedRunId = null;
      lastStart = null;
      // A run opened again after a reset is news to the app again.
      reported = null;
      follow(null);
    },
  };
  return controller;
}
