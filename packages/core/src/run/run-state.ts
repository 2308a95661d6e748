import type { IssuePath } from '../protocol/protocol-error.js';
import type { LogLevel, RunCompletedEvent, RunEvent, RunOutput, RunOutputStatus } from '../protocol/types.js';
import { AppendLog } from './append-log.js';
import type { PayloadSchema, PayloadState } from './payload.js';

/** Where a run is. Only `reduceRun` changes it. */
export type RunPhase = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'settled' | 'detached' | 'error';

/*
 * The phase vocabulary. Two questions are asked of a phase, and they differ only in `idle`:
 * - is the attempt still waiting for its outcome? (`idle` too: it is about to start, nothing ended it)
 * - is the client following the run over a connection right now? (not `idle`: nothing was asked yet)
 * `settled`, `detached` and `error` answer no to both. Ask these predicates; never list phases by hand.
 */

/**
 * Whether the attempt has not ended yet: `idle`, `connecting`, `streaming` or `reconnecting`. Nothing settled,
 * failed or detached it, so an outcome (or an error) may still come: what the reducer's client actions, the
 * reconnect loop and `cancel()`'s wait for the run id ask.
 */
export function isAwaitingOutcome(phase: RunPhase): boolean {
  return phase === 'idle' || isFollowing(phase);
}

/**
 * Whether the client is following the run over a connection: `connecting`, `streaming` or `reconnecting` (not
 * `idle`, where nothing was asked yet). What a Stop button, an activity indicator or "is this run live here" asks.
 *
 * @example
 * const showStop = useRunSelector(run, (state) => isFollowing(state.phase));
 */
export function isFollowing(phase: RunPhase): boolean {
  return phase === 'connecting' || phase === 'streaming' || phase === 'reconnecting';
}

/** A tool call's state: `running` until its `tool.completed`, then `succeeded`, or `failed` when `isError` was set. */
export type ToolCallStatus = 'running' | 'succeeded' | 'failed';

/** One tool call, by `callId`. Its output is evidence for the agent's loop, never the run's payload. */
export interface ToolCall {
  readonly callId: string;
  readonly name: string;
  readonly status: ToolCallStatus;
  readonly input: unknown;
  readonly output: unknown;
  readonly startedSeq: number;
  readonly completedSeq: number | null;
}

/** The latest `progress` event, as `state.progress`: a label to show and a 0..1 `fraction`, `null` when indeterminate. */
export interface RunProgress {
  readonly label: string;
  readonly fraction: number | null;
}

/** One `log` event as kept in `state.logs`, with the `seq` it arrived at so it can be ordered among other events. */
export interface RunLog {
  readonly seq: number;
  readonly level: LogLevel;
  readonly message: string;
}

/**
 * Which events `state.events` keeps (`RunClientOptions.retainEvents`):
 * - `all` (the default): every event received, for inspectors, recordings and replays.
 * - `structural`: every event except the deltas folded into `draftText` and `reasoning`. A run of text or
 *   reasoning deltas keeps its first one (where it started among the other events) and folds the rest, so a
 *   long run's memory is about its text, not its event count. `eventCount` still counts every event.
 */
export type RetainEvents = 'all' | 'structural';

/** What went wrong to an outcome. It is never an outcome itself. */
export type RunError =
  | {
      readonly kind: 'transport';
      readonly message: string;
      /** `none` when the request got no answer at all (see {@link TransportConnection}); absent means `lost`. */
      readonly connection?: TransportConnection;
    }
  | { readonly kind: 'truncated'; readonly message: string; readonly lastSeq: number }
  | {
      readonly kind: 'protocol';
      readonly message: string;
      readonly eventType: string | null;
      readonly seq: number | null;
      readonly path: IssuePath;
      readonly raw: unknown;
    }
  | { readonly kind: 'http'; readonly message: string; readonly status: number; readonly code: string | null }
  | { readonly kind: 'timeout'; readonly message: string; readonly timeoutMs: number };

/**
 * How a `transport` error happened: the attempt's request got no answer at all, so no connection was ever made
 * (`none`: a wrong `baseUrl`, a server that is down or refuses the connection), or a connection that existed broke
 * (`lost`).
 */
export type TransportConnection = 'none' | 'lost';

/** The `kind` of a `RunError` (`transport`, `truncated`, `protocol`, `http`, `timeout`): switch on it to word a message or decide on a retry. */
export type RunErrorKind = RunError['kind'];

/** Why the client is reconnecting, for display. */
export interface ReconnectInfo {
  readonly attempt: number;
  readonly delayMs: number;
  readonly reason: string;
}

/**
 * Everything known about one run, as seen by this client: a union on `phase`, so checking the phase tells the
 * compiler what the other fields hold (see {@link RunStateByPhase}).
 *
 * Read `phase` first: only `settled` carries an outcome to show (`result`, `output`, `status`, never null there), and
 * only `error` an error (keeping the outcome only when a protocol error followed `run.completed`). `draftText` is
 * motion and is never the result.
 *
 * @example
 * if (state.phase === 'settled') show(state.output.assistantText); // no `?.`: a settled run has its output
 * if (state.phase === 'error') warn(state.error.message);
 */
export type RunState<P = unknown> = RunStateByPhase<P>[RunPhase];

/**
 * The state of each phase; {@link RunState} is the union of them. What each holds:
 * - `idle`, `connecting`, `streaming`, `detached`: no outcome and no error (all `null`);
 * - `reconnecting`: the same, with `reconnect` saying why and when;
 * - `settled`: the outcome (`result`, `output`, `status`), no error; a union on `status` in turn, so a check of
 *   `state.status` narrows `output`, and `payload` is set exactly when COMPLETED;
 * - `error`: the `error`; the outcome fields are set only when a protocol error came after `run.completed`.
 */
export interface RunStateByPhase<P = unknown> {
  readonly idle: RunStateWithoutOutcome<'idle', P>;
  readonly connecting: RunStateWithoutOutcome<'connecting', P>;
  readonly streaming: RunStateWithoutOutcome<'streaming', P>;
  readonly detached: RunStateWithoutOutcome<'detached', P>;
  readonly reconnecting: ReconnectingRunState<P>;
  readonly settled: SettledRunState<P>;
  readonly error: ErrorRunState<P>;
}

/** A state with no outcome and no error: phase `idle`, `connecting`, `streaming` or `detached`. */
export type RunStateWithoutOutcome<
  Phase extends 'idle' | 'connecting' | 'streaming' | 'detached',
  P = unknown,
> = RunStateFields<P> & {
  readonly phase: Phase;
  readonly result: null;
  readonly output: null;
  readonly status: null;
  readonly payload: null;
  readonly error: null;
  readonly reconnect: null;
};

/** A state while the client reconnects: no outcome or error yet, and `reconnect` set. */
export type ReconnectingRunState<P = unknown> = RunStateFields<P> & {
  readonly phase: 'reconnecting';
  readonly result: null;
  readonly output: null;
  readonly status: null;
  readonly payload: null;
  readonly error: null;
  readonly reconnect: ReconnectInfo;
};

/**
 * A settled state, one member per output status (all of them by default), so that a check of `state.status`
 * narrows `output` and `payload` too: only COMPLETED has a payload, and there it is never `null` (`{ status:
 * 'absent' }` when none was asked for).
 */
export type SettledRunState<P = unknown, S extends RunOutputStatus = RunOutputStatus> = S extends RunOutputStatus
  ? RunStateFields<P> & {
      readonly phase: 'settled';
      readonly result: RunCompletedEvent;
      readonly output: Extract<RunOutput, { readonly status: S }>;
      readonly status: S;
      readonly payload: S extends 'COMPLETED' ? PayloadState<P> : null;
      readonly error: null;
      readonly reconnect: null;
    }
  : never;

/**
 * A state that ended without an outcome here (the outcome fields all `null`), or whose stream broke the protocol
 * after `run.completed`: then the outcome fields keep what settled, and the error is that protocol error (nothing
 * else can follow an outcome). A check of `state.result !== null` tells the two apart.
 */
export type ErrorRunState<P = unknown> = RunStateFields<P> &
  (
    | {
        readonly phase: 'error';
        readonly result: null;
        readonly output: null;
        readonly status: null;
        readonly payload: null;
        readonly error: RunError;
        readonly reconnect: null;
      }
    | {
        readonly phase: 'error';
        readonly result: RunCompletedEvent;
        readonly output: RunOutput;
        readonly status: RunOutputStatus;
        readonly payload: PayloadState<P> | null;
        readonly error: Extract<RunError, { readonly kind: 'protocol' }>;
        readonly reconnect: null;
      }
  );

/**
 * The fields of every {@link RunState}, each with the widest type it has in any phase; {@link RunStateByPhase}
 * narrows those that depend on the phase.
 */
export interface RunStateFields<P = unknown> {
  readonly phase: RunPhase;
  readonly runId: string | null;
  /** The run's root session, named by `run.started`. */
  readonly sessionId: string | null;
  readonly attempt: number | null;
  /** The highest `seq` seen, 0 before any event. Events at or below it are duplicates. */
  readonly lastSeq: number;
  /**
   * The events received, unknown types included, in order, across attempts: every one with `retainEvents: 'all'`,
   * all but the folded deltas with `'structural'` (see {@link RetainEvents}).
   */
  readonly events: AppendLog<RunEvent>;
  /** How many events were received across attempts (duplicates excluded), those folded out of `events` included. */
  readonly eventCount: number;
  /** Text deltas of the current attempt. Motion only: once settled, show `output.assistantText`. */
  readonly draftText: string;
  readonly reasoning: string;
  readonly tools: readonly ToolCall[];
  readonly progress: RunProgress | null;
  readonly logs: AppendLog<RunLog>;
  /** The `run.completed` event; set only in phase `settled` (and kept if a later protocol error follows it). */
  readonly result: RunCompletedEvent | null;
  /**
   * Shorthand for `result.output`. Stored, not derived, so `state.output` stays a plain field every reader (and
   * `JSON.stringify`) sees; the reducer sets it in one place, together with `result`, so the two never disagree.
   */
  readonly output: RunOutput | null;
  /** Shorthand for `output.status`, set with `output` (see there). */
  readonly status: RunOutputStatus | null;
  /**
   * docs/protocol.md#finishreason: the `reason.kind` of the last root-session `turn/end` within the owned run interval
   * (`'completed'`, `'max-tokens'`, …). It describes the run, not the prompt.
   * - `null`: known to be none: this client saw the interval from `run.started` and it held no root `turn/end`.
   * - `undefined`: not known here: the run was read from its result alone, joined after its `run.started`, or
   *   ended without an outcome (phase `error` or `detached`), so there is no finish reason to report.
   */
  readonly finishReason: string | null | undefined;
  /** The checked `finalizedPayload`: set when settled COMPLETED, and kept by an error that followed that outcome. */
  readonly payload: PayloadState<P> | null;
  readonly error: RunError | null;
  readonly reconnect: ReconnectInfo | null;
  /** Machine bookkeeping for `finishReason`; not for display. */
  readonly interval: 'before' | 'open' | 'closed';
  /**
   * Configuration, not something that happened: the schema `payload` is checked with, given once to
   * `createInitialRunState` and carried along unchanged so that `reduceRun(state, action)` needs nothing else.
   */
  readonly payloadSchema: PayloadSchema<P> | undefined;
  /** Configuration too: which events `events` keeps (see {@link RetainEvents}). */
  readonly retainEvents: RetainEvents;
}

/**
 * A fresh state. Pass the app's payload schema so a COMPLETED payload is checked and typed.
 *
 * @example
 * const state = createInitialRunState({ payloadSchema: z.object({ total: z.number() }), retainEvents: 'structural' });
 */
export function createInitialRunState<P = unknown>(
  options: { payloadSchema?: PayloadSchema<P> | undefined; retainEvents?: RetainEvents | undefined } = {},
): RunState<P> {
  return {
    phase: 'idle',
    runId: null,
    sessionId: null,
    attempt: null,
    lastSeq: 0,
    events: AppendLog.empty(),
    eventCount: 0,
    draftText: '',
    reasoning: '',
    tools: [],
    progress: null,
    logs: AppendLog.empty(),
    result: null,
    output: null,
    status: null,
    finishReason: undefined,
    payload: null,
    error: null,
    reconnect: null,
    interval: 'before',
    payloadSchema: options.payloadSchema,
    retainEvents: options.retainEvents ?? 'all',
  };
}

/** The state of a run nothing has happened to yet. */
export const initialRunState: RunState = /* @__PURE__ */ createInitialRunState();
