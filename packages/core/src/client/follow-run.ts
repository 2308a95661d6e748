import { resultActions } from '../run/result-actions.js';
import { parseSSEMessage } from '../protocol/parse-run-event.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import type { RunCompletedEvent } from '../protocol/types.js';
import type { RunAction } from '../run/run-action.js';
import { isAwaitingOutcome, type RunState } from '../run/run-state.js';
import { readSSE } from '../sse/read-sse.js';
import { backoffDelay, type ResolvedReconnectPolicy } from './backoff.js';
import type { Http } from './http.js';
import { protocolErrorAction } from '../run/protocol-error-action.js';
import { idSegment } from './resource-id.js';
import { RunClientError } from './run-client-error.js';
import { startSilenceTimer } from './silence-timer.js';
import { errorMessage } from '../error-message.js';
import type { TransportTap } from './transport-tap.js';

export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 45_000;

/** What an attempt talks through: its HTTP side and the tap that reports its wire activity. */
export interface AttemptIO {
  readonly http: Http;
  readonly tap: TransportTap;
}

export interface FollowContext<P> extends AttemptIO {
  readonly policy: ResolvedReconnectPolicy;
  readonly heartbeatTimeoutMs: number;
  /** Aborted when the caller detaches: stop everything, report nothing. */
  readonly signal: AbortSignal;
  readonly getState: () => RunState<P>;
  readonly dispatch: (action: RunAction) => RunState<P>;
  /** For resumes: reads the run's terminal event (`null` while it is live) when a stream ends without one. */
  readonly readResult?: ((signal: AbortSignal, io: AttemptIO) => Promise<RunCompletedEvent | null>) | undefined;
}

/** What opening an attempt found: a stream to read, or (for a run that already settled) its terminal event. */
export type Opened =
  | { readonly kind: 'stream'; readonly response: Response }
  | { readonly kind: 'settled'; readonly event: RunCompletedEvent };

/** Opens the attempt's first connection. */
export type BeginAttempt = (signal: AbortSignal, io: AttemptIO) => Promise<Opened>;

/** `GET /v1/runs/{runId}/events` after `lastSeq` (from the first event when it is 0). */
export function openEvents(
  http: Http,
  runId: string,
  lastSeq: number | undefined,
  signal: AbortSignal,
): Promise<Response> {
  return http.send({
    method: 'GET',
    path: `/v1/runs/${idSegment('run id', runId)}/events`,
    accept: 'text/event-stream',
    lastEventId: lastSeq,
    signal,
    runId,
  });
}

/** Settles from a terminal event read from `/result` (see `resultActions`). */
function settleFromResult<P>(ctx: FollowContext<P>, event: RunCompletedEvent): void {
  for (const action of resultActions(ctx.getState().lastSeq, event)) ctx.dispatch(action);
}

/** How one connection ended. */
type ReadOutcome =
  { readonly kind: 'ended' } | { readonly kind: 'stopped' } | { readonly kind: 'lost'; readonly reason: string };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Errors that a later reconnect may cure, once the run id is known (only an `http` error has a `status`). */
function isRetryable(error: RunClientError, reconnecting: boolean): boolean {
  if (error.kind === 'transport') return true;
  if (!reconnecting) return false;
  return error.kind === 'timeout' || (error.status !== null && (error.status >= 500 || error.status === 429));
}

function failureAction(error: RunClientError): RunAction {
  const detail = error.detail;
  switch (detail?.kind) {
    case 'http':
      return { type: 'client/http-error', status: detail.status, code: detail.code, message: detail.message };
    case 'timeout':
      return { type: 'client/timed-out', message: detail.message, timeoutMs: detail.timeoutMs };
    case 'protocol':
      return protocolErrorAction(detail);
    default:
      return { type: 'client/connection-lost', message: error.message };
  }
}

/**
 * Reads one SSE response into the store. A heartbeat timer, reset by every byte (keep-alive comments included),
 * aborts a silent connection so it can be resumed.
 */
async function readStream<P>(
  ctx: FollowContext<P>,
  response: Response,
  connection: AbortController,
  onProgress: () => void,
): Promise<ReadOutcome> {
  if (response.body === null) return { kind: 'ended' };
  let silent = false;
  const heartbeat = startSilenceTimer(ctx.heartbeatTimeoutMs, () => {
    silent = true;
    connection.abort();
  });
  // Once settled, only the end of the stream (or trailing events, a protocol error) is awaited: keep-alives no
  // longer extend it, so a server that never closes cannot hold the connection open past one heartbeat.
  const onBytes = () => {
    if (ctx.getState().phase !== 'settled') heartbeat.reset();
  };
  try {
    // A plain reader loop (readSSE): one await per chunk, where an async iterator added several promise hops.
    const end = await readSSE(
      response.body,
      (message) => {
        if (ctx.tap.active) ctx.tap.emit({ type: 'message', message });
        let event;
        try {
          event = parseSSEMessage(message);
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
          ctx.dispatch(protocolErrorAction(error));
          return 'stop';
        }
        const before = ctx.getState().lastSeq;
        const state = ctx.dispatch(event);
        if (state.lastSeq > before) onProgress();
        return state.phase === 'error' || state.phase === 'detached' ? 'stop' : 'continue';
      },
      { onBytes, maxMessageBytes: ctx.http.maxMessageBytes, signal: connection.signal },
    );
    return { kind: end };
  } catch (error) {
    if (ctx.signal.aborted) return { kind: 'stopped' };
    // The decoder's size limit: resuming would only read the same oversized message again.
    if (error instanceof ProtocolError) {
      ctx.dispatch(protocolErrorAction(error));
      return { kind: 'stopped' };
    }
    if (silent) {
      if (ctx.tap.active) ctx.tap.emit({ type: 'heartbeat-lost', timeoutMs: ctx.heartbeatTimeoutMs });
      return { kind: 'lost', reason: `no data for ${ctx.heartbeatTimeoutMs} ms (heartbeat timeout)` };
    }
    return { kind: 'lost', reason: `connection dropped: ${errorMessage(error)}` };
  } finally {
    heartbeat.stop();
  }
}

/**
 * Follows one attempt until it settles, fails or is detached: opens the first connection, then resumes with
 * `Last-Event-ID` after drops and silences, backing off between reconnects. Every state change is a `reduceRun`
 * action; this function never throws.
 */
export async function followRun<P>(ctx: FollowContext<P>, begin: BeginAttempt): Promise<void> {
  // Where this handle started: a resume's lastSeq (the last event its caller saw), else 0 or the attempt before.
  const fromSeq = ctx.getState().lastSeq;
  let reconnects = 0;
  let open: BeginAttempt = begin;
  let reconnecting = false;
  for (;;) {
    if (ctx.signal.aborted || !isAwaitingOutcome(ctx.getState().phase)) return;
    const connection = new AbortController();
    const onDetach = () => connection.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onDetach, { once: true });
    let outcome: ReadOutcome;
    try {
      const opened = await open(connection.signal, ctx);
      if (opened.kind === 'settled') {
        settleFromResult(ctx, opened.event);
        return;
      }
      const response = opened.response;
      const contentType = response.headers.get('content-type');
      if (contentType !== null && !contentType.includes('text/event-stream')) {
        await response.body?.cancel().catch(() => undefined);
        ctx.dispatch({
          type: 'client/protocol-error',
          message: `Expected a text/event-stream response, got "${contentType}"`,
          path: [],
        });
        return;
      }
      ctx.dispatch({ type: 'client/connected' });
      outcome = await readStream(ctx, response, connection, () => {
        reconnects = 0;
      });
    } catch (error) {
      if (ctx.signal.aborted) return;
      const known = ctx.getState().runId !== null;
      if (error instanceof RunClientError && !(known && isRetryable(error, reconnecting))) {
        ctx.dispatch(failureAction(error));
        return;
      }
      outcome = { kind: 'lost', reason: errorMessage(error) };
    } finally {
      ctx.signal.removeEventListener('abort', onDetach);
      connection.abort();
    }

    if (ctx.tap.active) {
      ctx.tap.emit({
        type: 'connection-closed',
        outcome: outcome.kind,
        reason: outcome.kind === 'lost' ? outcome.reason : null,
      });
    }
    const state = ctx.getState();
    if (outcome.kind === 'stopped' || ctx.signal.aborted || !isAwaitingOutcome(state.phase)) return;
    if (outcome.kind === 'ended') {
      // A resume can start at or past the terminal event (the last seq shown was the outcome), so its stream may
      // end with nothing new: the result, when there is one, says how the attempt settled.
      const settled = ctx.readResult === undefined ? null : await ctx.readResult(ctx.signal, ctx).catch(() => null);
      if (ctx.signal.aborted) return;
      if (ctx.readResult !== undefined && ctx.tap.active)
        ctx.tap.emit({ type: 'result', reason: 'stream-ended', event: settled });
      // An outcome before the last event seen is an earlier attempt's (a stale /result): this one has not settled.
      // One at the last event seen is the outcome the caller saw before resuming, unless this handle read that seq
      // itself as another event: then the server gave one seq to two events, and neither is dropped for the other.
      const lastSeq = ctx.getState().lastSeq;
      if (settled?.seq === lastSeq && lastSeq > fromSeq) {
        ctx.dispatch({
          type: 'client/protocol-error',
          message: `/result's run.completed has seq ${lastSeq}, the seq of an event already read`,
          eventType: 'run.completed',
          seq: lastSeq,
          path: ['seq'],
        });
      } else if (settled !== null && settled.seq >= lastSeq) settleFromResult(ctx, settled);
      else ctx.dispatch({ type: 'client/stream-ended' });
      return;
    }
    const runId = state.runId;
    if (runId === null) {
      // Nothing identifies the run yet, so there is nothing to resume; a start request is never re-sent.
      ctx.dispatch({ type: 'client/connection-lost', message: `${outcome.reason}, before the run had an id` });
      return;
    }
    reconnects += 1;
    if (reconnects > ctx.policy.attempts) {
      ctx.dispatch({
        type: 'client/connection-lost',
        message: `${outcome.reason}; gave up after ${ctx.policy.attempts} reconnects`,
      });
      return;
    }
    const delayMs = backoffDelay(reconnects, ctx.policy);
    ctx.dispatch({ type: 'client/reconnecting', attempt: reconnects, delayMs, reason: outcome.reason });
    if (ctx.tap.active) ctx.tap.emit({ type: 'reconnect-wait', attempt: reconnects, delayMs, reason: outcome.reason });
    await sleep(delayMs, ctx.signal);
    reconnecting = true;
    open = async (signal) => {
      const afterSeq = ctx.getState().lastSeq;
      if (ctx.tap.active) ctx.tap.emit({ type: 'resume', afterSeq });
      return { kind: 'stream', response: await openEvents(ctx.http, runId, afterSeq, signal) };
    };
  }
}
