import type { KnownRunEvent, RunCompletedEvent, RunEvent } from '../protocol/types.js';
import { readPayload } from './payload.js';
import { toProtocolRunError } from './protocol-run-error.js';
import type { ClientAction, RunAction } from './run-action.js';
import type { RunEffect, RunTransition } from './run-effect.js';
import { createInitialRunState, isAwaitingOutcome } from './run-state.js';
import type { ErrorRunState, RunError, RunPhase, RunState, RunStateByPhase, ToolCall } from './run-state.js';

/** A state whose attempt awaits its outcome (see `isAwaitingOutcome`): no result and no error yet. */
type Awaiting<P> = RunStateByPhase<P>['idle' | 'connecting' | 'streaming' | 'reconnecting'];

/** One shared empty list: most transitions (every delta) have no effect, and allocate none. */
const noEffects: readonly RunEffect[] = Object.freeze([]);

function quiet<P>(state: RunState<P>): RunTransition<P> {
  return { state, effects: noEffects };
}

/** Whether the state still takes in what the server sends: until it fails or is detached (settled included). */
function isListening(phase: RunPhase): boolean {
  return isAwaitingOutcome(phase) || phase === 'settled';
}

function fail<P>(state: RunState<P>, error: RunError): RunTransition<P> {
  // A run that failed to reach an outcome has no finish reason; one that settled and then broke keeps its own.
  const finishReason = state.result === null ? undefined : state.finishReason;
  // A cast: only a protocol error reaches a settled state (`applies`, `protocolError`), which the type says.
  const failed = { ...state, phase: 'error', error, reconnect: null, finishReason } as ErrorRunState<P>;
  return { state: failed, effects: [{ type: 'failed', error }] };
}

function protocolError<P>(
  state: RunState<P>,
  message: string,
  event: RunEvent,
  path: (string | number)[] = [],
): RunTransition<P> {
  return fail(
    state,
    toProtocolRunError({
      message,
      eventType: event.type === 'unknown' ? event.unknownType : event.type,
      seq: event.seq,
      path,
      raw: event.type === 'unknown' ? event.raw : event,
    }),
  );
}

/** The one place a run settles, and so the one place `result`, `output` and `status` are set (together). */
function settle<P>(state: Awaiting<P>, event: RunCompletedEvent): RunStateByPhase<P>['settled'] {
  const output = event.output;
  // A cast: the compiler cannot tie `payload` to `status` through the conditional (only COMPLETED has a payload).
  return {
    ...state,
    phase: 'settled',
    attempt: event.attempt,
    // The same text twice (a rope of every delta, and the output's string) would hold the answer twice: keep one.
    draftText: output.assistantText === state.draftText ? output.assistantText : state.draftText,
    result: event,
    output,
    status: output.status,
    payload: output.status === 'COMPLETED' ? readPayload(output, state.payloadSchema) : null,
    interval: 'closed',
    reconnect: null,
    error: null,
  } as RunStateByPhase<P>['settled'];
}

/**
 * Where call `callId` is in `tools`, -1 when absent. From the end: a completion is nearly always for a recent call,
 * and a long run holds thousands of calls (a scan from the start made tool events O(calls) in apps/bench).
 */
function toolIndex(tools: readonly ToolCall[], callId: string): number {
  for (let index = tools.length - 1; index >= 0; index--) if (tools[index]!.callId === callId) return index;
  return -1;
}

function upsertTool(tools: readonly ToolCall[], index: number, call: ToolCall): readonly ToolCall[] {
  if (index === -1) return [...tools, call];
  const next = tools.slice();
  next[index] = call;
  return next;
}

/**
 * Applies one known event other than `run.completed` (see `settle`), whose seq and run are already checked, to a
 * state that has recorded it.
 */
function applyEvent<P>(state: Awaiting<P>, event: Exclude<KnownRunEvent, RunCompletedEvent>): Awaiting<P> {
  switch (event.type) {
    case 'run.started':
      return {
        ...state,
        runId: event.runId,
        sessionId: event.sessionId,
        attempt: event.attempt,
        interval: 'before',
        finishReason: null,
      };
    case 'message.received': {
      // Only the root session's receipt opens the owned interval; a sub-agent's inbox is not the run's.
      const opens = state.interval === 'before' && state.sessionId !== null && event.sessionId === state.sessionId;
      return opens ? { ...state, interval: 'open' } : state;
    }
    case 'reasoning.delta':
    case 'text.delta':
    case 'progress':
    case 'log':
    case 'tool.started':
    case 'tool.completed':
      return applyMotion(state, event, state.runId, state.events, state.eventCount);
    case 'turn/end': {
      const counts = state.interval === 'open' && state.sessionId !== null && event.sessionId === state.sessionId;
      return counts ? { ...state, finishReason: event.reason.kind } : state;
    }
    case 'agent.idle':
      return state.interval === 'open' ? { ...state, interval: 'closed' } : state;
    default:
      return event satisfies never;
  }
}

/** Events that only change what is drawn: deltas, progress, logs and tool calls. Never a phase change. */
type MotionEvent = Extract<
  KnownRunEvent,
  { type: 'text.delta' | 'reasoning.delta' | 'progress' | 'log' | 'tool.started' | 'tool.completed' }
>;

function isMotion(action: RunAction): action is MotionEvent {
  switch (action.type) {
    case 'text.delta':
    case 'reasoning.delta':
    case 'progress':
    case 'log':
    case 'tool.started':
    case 'tool.completed':
      return true;
    default:
      return false;
  }
}

/** The call a `tool.completed` event makes of the call it completes (`started`, when its start was seen). */
function completedCall(
  started: ToolCall | undefined,
  event: Extract<MotionEvent, { type: 'tool.completed' }>,
): ToolCall {
  return {
    callId: event.callId,
    name: started?.name ?? '',
    input: started?.input,
    startedSeq: started?.startedSeq ?? event.seq,
    status: event.isError === true ? 'failed' : 'succeeded',
    output: event.output,
    completedSeq: event.seq,
  };
}

/**
 * Whether `retainEvents: 'structural'` folds this event out of `events`: a text or reasoning delta that continues
 * a run of them, i.e. the last kept event is a non-empty delta of the same kind. Its text is in `draftText` or
 * `reasoning`; the run's first delta stays, so readers still see where the text began among the other events.
 */
function folds<P>(state: RunState<P>, event: RunEvent): boolean {
  if (state.retainEvents !== 'structural' || (event.type !== 'text.delta' && event.type !== 'reasoning.delta')) {
    return false;
  }
  const last = state.events.at(-1);
  return (
    last !== undefined &&
    (last.type === 'text.delta' || last.type === 'reasoning.delta') &&
    last.type === event.type &&
    last.delta !== ''
  );
}

function retain<P>(state: RunState<P>, event: RunEvent): RunState<P>['events'] {
  return folds(state, event) ? state.events : state.events.append(event);
}

/*
 * Memory with `retainEvents: 'structural'`, whose promise is a run held by its text, not its event count: the rope
 * that `+=` builds holds an object per delta until something reads the text. A view reads it each commit; a client
 * that only awaits the result never does, and held about 2.7 times the text's own size mid-stream
 * (docs/performance.md, section 3). Reading a character flattens a rope in place (V8: Chrome and Node), so the
 * reducer reads one of each text at event counts spaced ever wider: every 4,096 events up to 65,536, then 8 per
 * doubling of the count. At most 4,096 deltas or an eighth of the count, whichever is larger, wait in a rope, and
 * the copies add up to about 12 times the text (linear; the first characters are copied at every flatten, 47 times
 * in 1M events). A non-motion event on a flattening count skips that one; the next comes at most an eighth later.
 * With 'all' the kept events hold every delta string anyway, and the copies would only cost time.
 */
const FLATTEN_EVERY = 4096;

// A multiple of 4,096 whose odd part is under 16 (`count & -count` is its lowest set bit): 1, 9/8 ... 15/8 times a
// power of two. `&` reads 32 bits: past 2^31 events (12 days at 2,000 a second) it stops flattening, nothing worse.
const flattensAt = (count: number): boolean => count % FLATTEN_EVERY === 0 && (count & -count) * 16 > count;

// Where the characters read go: a read whose result is unused is one a compiler may drop, and the read is the point.
const flattened = { sink: 0 };

/**
 * A motion event applied: the one definition both paths use (the general one passes the state that already
 * recorded the event, the hot path below records it here). Hot path (apps/bench, `pnpm bench`): a motion event
 * while streaming is the bulk of every long run, so this builds the next state in one object literal, from locals,
 * instead of spreads of this 20-field object or an object of changed fields (each cost about as much as the
 * literal, and with one event per chunk the garbage showed in the profile). Every field is listed, so the compiler
 * names any field added to RunState later.
 */
function applyMotion<P>(
  state: Awaiting<P>,
  event: MotionEvent,
  runId: string | null,
  events: RunState<P>['events'],
  eventCount: number,
): RunStateByPhase<P>['streaming'] {
  let { draftText, reasoning, tools, progress, logs } = state;
  switch (event.type) {
    case 'text.delta':
      // String concatenation builds a rope in JS engines: amortized O(1), flattened when read (and see flattensAt).
      draftText += event.delta;
      break;
    case 'reasoning.delta':
      reasoning += event.delta;
      break;
    case 'progress':
      progress = { label: event.label, fraction: event.fraction ?? null };
      break;
    case 'log':
      logs = logs.append({ seq: event.seq, level: event.level, message: event.message });
      break;
    case 'tool.started':
      tools = upsertTool(tools, toolIndex(tools, event.callId), {
        callId: event.callId,
        name: event.name,
        status: 'running',
        input: event.input,
        output: undefined,
        startedSeq: event.seq,
        completedSeq: null,
      });
      break;
    case 'tool.completed': {
      const index = toolIndex(tools, event.callId);
      tools = upsertTool(tools, index, completedCall(index === -1 ? undefined : tools[index], event));
      break;
    }
    default:
      return event satisfies never;
  }
  if (state.retainEvents === 'structural' && flattensAt(eventCount)) {
    flattened.sink = draftText.charCodeAt(0) + reasoning.charCodeAt(0);
  }
  return {
    phase: 'streaming',
    runId,
    sessionId: state.sessionId,
    attempt: state.attempt,
    lastSeq: event.seq,
    events,
    eventCount,
    draftText,
    reasoning,
    tools,
    progress,
    logs,
    result: state.result,
    output: state.output,
    status: state.status,
    finishReason: state.finishReason,
    payload: state.payload,
    error: state.error,
    reconnect: null,
    interval: state.interval,
    payloadSchema: state.payloadSchema,
    retainEvents: state.retainEvents,
  };
}

/** The general path for one event, without the `fastMotion` shortcut; exported for the property that they agree. */
export function transitionEvent<P>(state: RunState<P>, event: RunEvent): RunTransition<P> {
  if (event.seq <= state.lastSeq) return quiet(state); // a duplicate replayed after a resume
  if (!isListening(state.phase)) return quiet(state); // detached or failed: no longer listening
  if (state.runId !== null && event.runId !== state.runId) {
    return protocolError(state, `event belongs to run "${event.runId}", not "${state.runId}"`, event, ['runId']);
  }
  const received: RunState<P> = {
    ...state,
    runId: state.runId ?? event.runId,
    lastSeq: event.seq,
    events: retain(state, event),
    eventCount: state.eventCount + 1,
  };
  const identified: readonly RunEffect[] =
    state.runId === null ? [{ type: 'run-identified', runId: event.runId }] : noEffects;
  if (state.phase === 'settled') {
    // Kept in `events` (nothing the server sent is lost); `result` and `output` stay readable.
    return protocolError(received, 'event received after run.completed settled the attempt', event);
  }
  if (event.type === 'unknown') return { state: received, effects: identified };
  // Listening and not settled: the attempt awaits its outcome.
  const awaiting = received as Awaiting<P>;
  if (event.type === 'run.completed') {
    return { state: settle(awaiting, event), effects: [...identified, { type: 'settled', event }] };
  }
  return { state: { ...applyEvent(awaiting, event), phase: 'streaming', reconnect: null }, effects: identified };
}

/**
 * The next state when `action` is a motion event of the run being streamed, past the last seq: what the general
 * path makes of it, without its checks and copies, and with no effects. `undefined` for anything else.
 */
function fastMotion<P>(state: RunState<P>, action: RunAction): RunState<P> | undefined {
  if (!isMotion(action) || state.phase !== 'streaming' || action.runId !== state.runId || action.seq <= state.lastSeq) {
    return undefined;
  }
  return applyMotion(state, action, state.runId, retain(state, action), state.eventCount + 1);
}

function startAttempt<P>(
  state: RunState<P>,
  action: Extract<ClientAction, { type: 'client/start-requested' }>,
): RunState<P> {
  // Everything an attempt accumulates starts over; the initial state is the one definition of "nothing yet". It is
  // idle (the cast): `createInitialRunState` is typed as any state, so that `let state = ...` can take the next ones.
  const fresh: RunStateByPhase<P>['connecting'] = {
    ...(createInitialRunState({
      payloadSchema: state.payloadSchema,
      retainEvents: state.retainEvents,
    }) as RunStateByPhase<P>['idle']),
    phase: 'connecting',
  };
  switch (action.mode) {
    case 'respond':
      // A new attempt of the same run: its identity and history carry over.
      return {
        ...fresh,
        runId: state.runId,
        sessionId: state.sessionId,
        attempt: state.attempt,
        lastSeq: state.lastSeq,
        events: state.events,
        eventCount: state.eventCount,
        logs: state.logs,
      };
    case 'start':
    case 'resume':
      return { ...fresh, runId: action.runId ?? null, lastSeq: action.lastSeq ?? 0 };
    default:
      return action.mode satisfies never;
  }
}

/**
 * Whether a client action applies in this phase; in any other it leaves the state as it is. The one place the
 * reducer's guards live, so the cases below stay flat.
 */
function applies(action: ClientAction, phase: RunPhase): boolean {
  switch (action.type) {
    case 'client/start-requested':
      return true;
    case 'client/connected':
      return phase === 'connecting' || phase === 'reconnecting';
    case 'client/protocol-error':
      // Also after settling: a broken stream after run.completed is reported, and the outcome kept.
      return isListening(phase);
    default:
      // Every other happening ends or describes an attempt still awaiting its outcome.
      return isAwaitingOutcome(phase);
  }
}

function transitionClient<P>(state: RunState<P>, action: ClientAction): RunTransition<P> {
  if (!applies(action, state.phase)) return quiet(state);
  switch (action.type) {
    case 'client/start-requested': {
      const next = startAttempt(state, action);
      const identified = next.runId !== null && next.runId !== state.runId;
      return identified ? { state: next, effects: [{ type: 'run-identified', runId: next.runId }] } : quiet(next);
    }
    // `applies` let through only attempts awaiting their outcome, here and below (bar protocol errors).
    case 'client/connected':
      return quiet({ ...(state as Awaiting<P>), phase: 'streaming', reconnect: null });
    case 'client/reconnecting':
      return quiet({
        ...(state as Awaiting<P>),
        phase: 'reconnecting',
        reconnect: { attempt: action.attempt, delayMs: action.delayMs, reason: action.reason },
      });
    case 'client/connection-lost':
      // Still `connecting`: the request got no answer at all (a response moves the phase on), so nothing was lost.
      return fail(state, {
        kind: 'transport',
        message: action.message,
        connection: state.phase === 'connecting' ? 'none' : 'lost',
      });
    case 'client/stream-ended':
      return fail(state, {
        kind: 'truncated',
        message: 'The stream ended before run.completed: the run has no outcome yet',
        lastSeq: state.lastSeq,
      });
    case 'client/detached':
      return {
        state: { ...(state as Awaiting<P>), phase: 'detached', reconnect: null, finishReason: undefined },
        effects: [{ type: 'detached' }],
      };
    case 'client/timed-out':
      return fail(state, { kind: 'timeout', message: action.message, timeoutMs: action.timeoutMs });
    case 'client/http-error':
      return fail(state, { kind: 'http', message: action.message, status: action.status, code: action.code });
    case 'client/protocol-error':
      return fail(state, toProtocolRunError(action));
    default:
      return action satisfies never;
  }
}

function isClientAction(action: RunAction): action is ClientAction {
  return action.type.startsWith('client/');
}

/**
 * The run state machine: the only place a run's phase changes. A pure function that runs nothing: it returns the
 * next state and the effects of the change (see {@link RunEffect}) for the caller to act on, in one place. It never
 * throws for any sequence of actions, in any order: events are validated once at the edge (`parseRunEvent`),
 * everything else is a state. When nothing changes, `state` is the same object and `effects` is empty.
 *
 * @example
 * const { state, effects } = transitionRun(current, event);
 * for (const effect of effects) if (effect.type === 'settled') console.log(effect.event.output.status);
 */
export function transitionRun<P>(state: RunState<P>, action: RunAction): RunTransition<P> {
  const moved = fastMotion(state, action);
  if (moved !== undefined) return { state: moved, effects: noEffects };
  return isClientAction(action) ? transitionClient(state, action) : transitionEvent(state, action);
}

/**
 * The next state alone: {@link transitionRun} without its effects, for callers that only fold states.
 *
 * @example
 * let state = initialRunState;
 * for (const event of events) state = reduceRun(state, event);
 * if (state.phase === 'settled') console.log(state.output.status);
 */
export function reduceRun<P>(state: RunState<P>, action: RunAction): RunState<P> {
  // The hot path without the transition object: a fold over 100,000 deltas needs none of them.
  return fastMotion(state, action) ?? transitionRun(state, action).state;
}
