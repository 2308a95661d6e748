import type { InteractionAnswer, RunCompletedEvent } from '../protocol/types.js';
import { InteractionAnswerError, validateInteractionAnswer } from '../protocol/validate-interaction-answer.js';
import type { ClientAction } from '../run/run-action.js';
import { isAwaitingOutcome, type RunState } from '../run/run-state.js';
import type { ResolvedReconnectPolicy } from './backoff.js';
import { followRun, type AttemptIO, type BeginAttempt } from './follow-run.js';
import type { Http } from './http.js';
import { isInteractionExpired } from '../protocol/interaction-expiry.js';
import { idSegment } from './resource-id.js';
import { RunClientError } from './run-client-error.js';
import type { ResolvedMotionSchedule } from './motion-schedule.js';
import { createRunStore } from './run-store.js';
import { RunUsageError } from './run-usage-error.js';
import type { FrameScheduler, RunHandle } from './types.js';
import type { TransportEvent, TransportListener } from './transport-event.js';
import { createTransportTap } from './transport-tap.js';
import { errorMessage } from '../error-message.js';

export interface HandleDeps {
  readonly http: Http;
  readonly policy: ResolvedReconnectPolicy;
  readonly heartbeatTimeoutMs: number;
  readonly scheduler: FrameScheduler;
  readonly motion: ResolvedMotionSchedule;
}

export interface HandleInit<P> {
  /** The state before this attempt: fresh for `start`/`resume`, the WAITING state for `respond`. */
  readonly initial: RunState<P>;
  /** Null when `initial` is already settled (a run known by its terminal event): nothing is sent. */
  readonly start: Extract<ClientAction, { type: 'client/start-requested' }> | null;
  readonly begin: BeginAttempt;
  /** For resumes: how to read the terminal event when a stream ends without one (see `followRun`). */
  readonly readResult?: ((signal: AbortSignal, io: AttemptIO) => Promise<RunCompletedEvent | null>) | undefined;
  /** Aborting it detaches the handle. */
  readonly signal?: AbortSignal | undefined;
  /** Transport listeners of the attempt this one follows (`respond`): the run keeps reporting to them. */
  readonly transportListeners?: readonly TransportListener[] | undefined;
}

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** One attempt of a run: a store fed by {@link followRun}, plus what a person can do to it. */
export function createRunHandle<P>(deps: HandleDeps, init: HandleInit<P>): RunHandle<P> {
  const store = createRunStore(init.initial, deps.scheduler, deps.motion);
  const lifetime = new AbortController();
  const result = deferred<RunCompletedEvent>();
  // Marks the promise handled without hiding it: awaiting `handle.result` still rejects.
  result.promise.catch(() => undefined);
  const runIdWaiters = new Set<() => void>();
  const tap = createTransportTap({ getState: store.getState, subscribe: store.subscribe }, init.transportListeners);
  // A run known by its terminal event (start === null) was read, not followed: the listener hears it as a resume.
  const attemptEvent = (): TransportEvent => ({
    type: 'attempt',
    mode: init.start?.mode ?? 'resume',
    runId: init.start?.runId ?? init.initial.runId,
    lastSeq: init.start?.lastSeq ?? init.initial.lastSeq,
  });
  // Every request of this attempt reports to the tap; a spread per request, nothing per event.
  const io: AttemptIO = {
    tap,
    http: {
      maxMessageBytes: deps.http.maxMessageBytes,
      send: (request) => deps.http.send({ ...request, tap }),
      sendForText: (request) => deps.http.sendForText({ ...request, tap }),
    },
  };

  // The one place this handle acts on what happened: the transitions' effects, never a comparison of states.
  store.subscribeEffects((effect) => {
    const runId = store.getState().runId;
    // After `settled`, a `failed` (a protocol error once the attempt had its outcome) changes nothing: `result` is kept.
    if (effect.type === 'settled') result.resolve(effect.event);
    else if (effect.type === 'failed') {
      result.reject(new RunClientError(effect.error, { runId }));
      if (tap.active) tap.emit({ type: 'error', error: effect.error });
    } else if (effect.type === 'detached') {
      result.reject(
        new RunClientError(
          {
            kind: 'detached',
            message:
              'Detached before the attempt settled: the run goes on on the server, this handle no longer follows it',
          },
          { runId },
        ),
      );
    }
    // Every effect means the run id is known now, or will never be: whoever waits for it goes on.
    for (const wake of [...runIdWaiters]) wake();
  });

  const dispatch = store.dispatch;

  /** The run id, waiting for the first event if need be; `null` when the attempt ended without one. */
  const runIdWhenKnown = (): Promise<string | null> =>
    new Promise((resolve) => {
      const check = () => {
        const state = store.getState();
        if (state.runId !== null || !isAwaitingOutcome(state.phase)) {
          runIdWaiters.delete(check);
          resolve(state.runId);
        }
      };
      runIdWaiters.add(check);
      check();
    });

  let cancelling: Promise<void> | null = null;
  let answering: 'idle' | 'in-flight' | 'answered' = 'idle';

  const detach = () => {
    if (!lifetime.signal.aborted) lifetime.abort(new RunClientError({ kind: 'detached', message: 'detached' }));
    dispatch({ type: 'client/detached' });
  };

  const cancel = (): Promise<void> => {
    cancelling ??= (async () => {
      if (store.getState().phase === 'settled') return;
      const runId = await runIdWhenKnown();
      if (runId === null || store.getState().phase === 'settled') return;
      const response = await io.http
        .send({
          method: 'POST',
          path: `/v1/runs/${idSegment('run id', runId)}/cancel`,
          accept: 'application/json',
          runId,
        })
        .catch((error: unknown) => {
          // 409: the run settled on the server before the request arrived. Nothing is left to cancel, and the
          // stream this handle still reads reports the real outcome, so this is not a failure of cancel().
          if (error instanceof RunClientError && error.status === 409) return null;
          throw error;
        });
      await response?.body?.cancel().catch(() => undefined);
    })().catch((error: unknown) => {
      cancelling = null; // a failed cancel may be tried again
      throw error;
    });
    return cancelling;
  };

  const respond = async (answer: InteractionAnswer): Promise<RunHandle<P>> => {
    const state = store.getState();
    if (state.phase !== 'settled' || state.status !== 'WAITING') {
      throw new RunUsageError(
        'not-waiting',
        `Only a run settled WAITING can be answered; this one is ${state.phase}${state.status === null ? '' : ` ${state.status}`}`,
      );
    }
    if (answering === 'in-flight')
      throw new RunUsageError(
        'answer-in-flight',
        'This interaction is already being answered; the answer is not sent twice',
      );
    if (answering === 'answered')
      throw new RunUsageError(
        'already-answered',
        'This interaction was already answered; follow the handle the first respond() returned',
      );
    const interaction = state.output.interaction;
    if (isInteractionExpired(interaction.expiresAt, Date.now())) {
      throw new RunUsageError('expired', `Interaction expired at ${interaction.expiresAt}; nothing was sent`);
    }
    const check = validateInteractionAnswer(interaction, answer);
    if (!check.valid) throw new InteractionAnswerError(check.issues);
    const sessionId = state.sessionId ?? state.result.sessionId;
    const runId = state.runId ?? state.result.runId;
    const path = `/v1/sessions/${idSegment('session id', sessionId)}/interactions/${idSegment('interaction id', interaction.id)}`;
    answering = 'in-flight';
    const request = new AbortController();
    let response: Response;
    if (tap.active) tap.emit({ type: 'answer', interactionId: interaction.id, answer: check.answer });
    try {
      response = await io.http.send({
        method: 'POST',
        path,
        accept: 'text/event-stream',
        body: check.answer,
        signal: request.signal,
        runId,
      });
    } catch (error) {
      answering = 'idle'; // the WAITING state is untouched: the person may correct the answer and retry
      throw error;
    }
    answering = 'answered';
    return createRunHandle(deps, {
      initial: store.getState(),
      start: { type: 'client/start-requested', mode: 'respond' },
      transportListeners: tap.listeners(),
      begin: async (signal) => {
        signal.addEventListener('abort', () => request.abort(signal.reason), { once: true });
        return { kind: 'stream', response };
      },
    });
  };

  if (init.start === null) {
    if (init.initial.result !== null) result.resolve(init.initial.result);
  } else {
    if (tap.active) tap.emit(attemptEvent());
    dispatch(init.start);
  }
  const { signal } = init;
  if (signal?.aborted) detach();
  else signal?.addEventListener('abort', detach, { once: true });
  void followRun(
    {
      ...io,
      policy: deps.policy,
      heartbeatTimeoutMs: deps.heartbeatTimeoutMs,
      signal: lifetime.signal,
      getState: store.getState,
      dispatch,
      readResult: init.readResult,
    },
    init.begin,
  )
    .catch((error: unknown) => {
      dispatch({
        type: 'client/connection-lost',
        message: `Run client failure: ${errorMessage(error)}`,
      });
    })
    // A signal shared by many runs (a page's) must not hold each one once it is no longer followed: let go when the
    // connection is over (after the outcome, the stream is still read to its end, and the signal still closes it).
    .finally(() => signal?.removeEventListener('abort', detach));

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    subscribeEffects: store.subscribeEffects,
    subscribeTransport: (listener) => {
      if (tap.add(listener)) tap.tell(listener, attemptEvent());
      return () => tap.remove(listener);
    },
    result: result.promise,
    cancel,
    detach,
    respond,
  };
}
