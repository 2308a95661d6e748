import {
  chunksToStream,
  createEventFactory,
  sampleInvoice,
  scenarioEvents,
  scenarios,
  splitAt,
  toBytes,
  type WireEvent,
} from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../protocol/protocol-error.js';
import { parseRunEvent, parseSSEMessage } from '../protocol/parse-run-event.js';
import type { RunEvent } from '../protocol/types.js';
import { decodeSSE } from '../sse/decode-sse.js';
import type { RunAction } from './run-action.js';
import { reduceRun, transitionEvent, transitionRun } from './reduce-run.js';
import type { RunEffect } from './run-effect.js';
import { checkPhaseFields } from './play-scenario.test-helper.js';
import { createInitialRunState, type RetainEvents, type RunPhase, type RunState } from './run-state.js';

/*
 * Random runs, randomly corrupted, fed to the reducer the way a client does (parse at the edge, report a parse
 * failure as client/protocol-error, say when the stream ended). The reducer must never throw, and must end in
 * `settled` exactly when a valid run.completed was the last new event it accepted, otherwise in `error`.
 */

// ---- random runs, built with the shared event factory ----

const outputs = [
  { status: 'COMPLETED', assistantText: 'Done.' },
  { status: 'COMPLETED', assistantText: 'Here is the invoice.', finalizedPayload: sampleInvoice },
  { status: 'FAILED', error: { code: 'overloaded', message: 'Try again', retryable: true }, assistantText: null },
  { status: 'CANCELLED', cancellation: { reason: 'Stopped', by: 'user' } },
  { status: 'WAITING', interaction: { id: 'int_1', kind: 'approval', prompt: 'Send it?', action: 'email.send' } },
  { status: 'WAITING', interaction: { id: 'int_2', kind: 'signature', prompt: 'Sign' } },
];

type Step =
  | { readonly tag: 'started' | 'received' | 'idle' }
  | { readonly tag: 'text' | 'reasoning' | 'log' | 'unknown'; readonly text: string }
  | { readonly tag: 'progress'; readonly text: string; readonly fraction: number }
  | { readonly tag: 'tool'; readonly callId: number; readonly done: boolean; readonly isError: boolean }
  | { readonly tag: 'turn'; readonly kind: string; readonly sub: boolean }
  | { readonly tag: 'completed'; readonly output: number };

const text = fc.string({ maxLength: 8 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>({ tag: 'started' }, { tag: 'received' }, { tag: 'idle' }),
  fc.record({ tag: fc.constantFrom('text' as const, 'reasoning' as const, 'log' as const, 'unknown' as const), text }),
  fc.record({ tag: fc.constant('progress' as const), text, fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    tag: fc.constant('tool' as const),
    callId: fc.nat({ max: 3 }),
    done: fc.boolean(),
    isError: fc.boolean(),
  }),
  fc.record({
    tag: fc.constant('turn' as const),
    kind: fc.constantFrom('completed', 'max-tokens', 'tool-calls', 'future-kind'),
    sub: fc.boolean(),
  }),
  fc.record({ tag: fc.constant('completed' as const), output: fc.nat({ max: outputs.length - 1 }) }),
);

function buildRun(steps: readonly Step[]): WireEvent[] {
  const e = createEventFactory({ runId: 'run_prop' });
  return steps.map((step) => {
    switch (step.tag) {
      case 'started':
        return e.started(1);
      case 'received':
        return e.received();
      case 'idle':
        return e.idle();
      case 'text':
        return e.text(step.text);
      case 'reasoning':
        return e.reasoning(step.text);
      case 'log':
        return e.log('info', step.text);
      case 'unknown':
        return e.event('usage.reported', { note: step.text });
      case 'progress':
        return e.progress(step.text, step.fraction);
      case 'tool':
        return step.done
          ? e.toolCompleted(`call_${step.callId}`, { ok: !step.isError }, step.isError)
          : e.toolStarted(`call_${step.callId}`, 'search', {});
      case 'turn':
        return e.turnEnd(step.kind, step.sub ? 'ses_sub' : e.sessionId);
      case 'completed':
        return e.completed(outputs[step.output] ?? {});
      default:
        return step satisfies never;
    }
  });
}

const randomRun = fc.array(stepArb, { maxLength: 25 }).map(buildRun);
const scenarioRun = fc.constantFrom(...scenarios).map((scenario) => scenarioEvents(scenario.steps));

// ---- corruption ----

type Corruption =
  | { readonly op: 'drop'; readonly index: number; readonly key: number }
  | { readonly op: 'retype'; readonly index: number; readonly key: number; readonly value: unknown }
  | { readonly op: 'swapSeq' | 'swap'; readonly index: number; readonly other: number }
  | { readonly op: 'duplicate'; readonly index: number; readonly at: number }
  | { readonly op: 'truncate'; readonly at: number };

const index = fc.nat({ max: 60 });
const corruptionArb: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), index, key: fc.nat() }),
  fc.record({ op: fc.constant('retype' as const), index, key: fc.nat(), value: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ op: fc.constantFrom('swapSeq' as const, 'swap' as const), index, other: index }),
  fc.record({ op: fc.constant('duplicate' as const), index, at: index }),
  fc.record({ op: fc.constant('truncate' as const), at: index }),
);

type Json = Record<string, unknown>;

/** Top-level keys and one level into `output` / `reason` / `interaction`: where a broken server breaks things. */
function fieldPaths(event: Json): string[][] {
  const paths: string[][] = Object.keys(event).map((key) => [key]);
  for (const key of ['output', 'reason']) {
    const inner = event[key];
    if (typeof inner === 'object' && inner !== null) paths.push(...Object.keys(inner).map((k) => [key, k]));
  }
  return paths;
}

function setPath(event: Json, path: readonly string[], value: unknown, remove: boolean): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    if (remove) delete event[head];
    else event[head] = value;
    return;
  }
  const inner = event[head];
  if (typeof inner === 'object' && inner !== null) setPath(inner as Json, rest, value, remove);
}

function corrupt(events: readonly WireEvent[], corruptions: readonly Corruption[]): Json[] {
  const list: Json[] = events.map((event) => structuredClone({ ...event }));
  for (const c of corruptions) {
    if (list.length === 0) break;
    const i = ('index' in c ? c.index : 0) % list.length;
    const target = list[i] as Json;
    switch (c.op) {
      case 'drop':
      case 'retype': {
        const paths = fieldPaths(target);
        const path = paths[c.key % paths.length];
        if (path !== undefined) setPath(target, path, c.op === 'retype' ? c.value : undefined, c.op === 'drop');
        break;
      }
      case 'swapSeq': {
        const other = list[c.other % list.length] as Json;
        [target.seq, other.seq] = [other.seq, target.seq];
        break;
      }
      case 'swap': {
        const j = c.other % list.length;
        [list[i], list[j]] = [list[j] as Json, target];
        break;
      }
      case 'duplicate':
        list.splice(c.at % (list.length + 1), 0, structuredClone(target));
        break;
      case 'truncate':
        list.length = c.at % (list.length + 1);
        break;
      default:
        return c satisfies never;
    }
  }
  return list;
}

// ---- the client edge, and an independent model of the outcome ----

type Received = { readonly ok: true; readonly event: RunEvent } | { readonly ok: false; readonly error: ProtocolError };

function receive(parse: () => RunEvent): Received {
  try {
    return { ok: true, event: parse() };
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { ok: false, error };
  }
}

function toAction(item: Received): RunAction {
  return item.ok
    ? item.event
    : {
        type: 'client/protocol-error',
        message: item.error.message,
        eventType: item.error.eventType,
        seq: item.error.seq,
        path: item.error.path,
        raw: item.error.raw,
      };
}

/** What the protocol says the outcome is (docs/protocol.md#reading-a-run-in-four-rules), written without the reducer: settled iff the last new event was a run.completed. */
function expectedPhase(items: readonly Received[]): 'settled' | 'error' {
  let lastSeq = 0;
  let runId: string | null = null;
  let phase: 'live' | 'settled' | 'error' = 'live';
  for (const item of items) {
    if (phase === 'error') break;
    if (!item.ok) {
      phase = 'error';
      continue;
    }
    const { event } = item;
    if (event.seq <= lastSeq) continue;
    if (runId !== null && event.runId !== runId) phase = 'error';
    else if (phase === 'settled') phase = 'error';
    else if (event.type === 'run.completed') phase = 'settled';
    runId ??= event.runId;
    lastSeq = event.seq;
  }
  return phase === 'settled' ? 'settled' : 'error';
}

/** Invariants that hold after every single action. */
function checkInvariants(before: RunState, after: RunState, action: RunAction): void {
  checkPhaseFields(after);
  expect(after.lastSeq).toBeGreaterThanOrEqual(before.lastSeq);
  if (after.phase === 'settled') {
    expect(after.result).not.toBeNull();
    expect(after.output).toBe(after.result?.output);
    expect(after.status).toBe(after.output?.status);
    expect(after.error).toBeNull();
    if (before.phase !== 'settled') expect(action.type).toBe('run.completed');
  }
  if (after.phase === 'error') expect(after.error).not.toBeNull();
  if (after.result === null) expect(after.output).toBeNull();
  if (after.output?.status === 'COMPLETED') expect(after.output.assistantText.length).toBeGreaterThan(0);
  if (after.phase !== 'settled' && after.result !== null) expect(after.error?.kind).toBe('protocol');
}

function runClient(items: readonly Received[], extra: readonly RunAction[] = []): RunState {
  const actions: RunAction[] = [
    { type: 'client/start-requested', mode: 'start' },
    { type: 'client/connected' },
    ...extra,
  ];
  for (const item of items) actions.push(toAction(item));
  actions.push({ type: 'client/stream-ended' });
  let state = createInitialRunState();
  for (const action of actions) {
    const next = reduceRun(state, action);
    checkInvariants(state, next, action);
    state = next;
  }
  return state;
}

function checkOutcome(items: readonly Received[], state: RunState): void {
  expect(state.phase).toBe(expectedPhase(items));
  if (state.phase === 'settled') {
    const accepted = state.events.toArray();
    expect(accepted.at(-1)).toBe(state.result);
    expect(items.some((item) => item.ok && item.event === state.result)).toBe(true);
  }
  const seqs = state.events.toArray().map((event) => event.seq);
  seqs.slice(1).forEach((seq, i) => expect(seq).toBeGreaterThan(seqs[i] ?? 0));
}

describe('reduceRun under random runs and random corruption', () => {
  const input = fc.record({
    events: fc.oneof(randomRun, scenarioRun),
    corruptions: fc.array(corruptionArb, { maxLength: 4 }),
    hiccups: fc.array(
      fc.constantFrom<RunAction>(
        { type: 'client/connected' },
        { type: 'client/reconnecting', attempt: 1, delayMs: 0, reason: 'drop' },
      ),
      { maxLength: 2 },
    ),
  });

  it('never throws, settles only after a valid run.completed, otherwise ends in error', () => {
    fc.assert(
      fc.property(input, ({ events, corruptions, hiccups }) => {
        const items = corrupt(events, corruptions).map((event) => receive(() => parseRunEvent(event)));
        checkOutcome(items, runClient(items, hiccups));
      }),
      { numRuns: 500 },
    );
  });

  it('the same holds end to end: corrupted events as SSE bytes in random chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        input,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        async ({ events, corruptions }, cuts) => {
          const wire = corrupt(events, corruptions);
          // A corrupted type or seq may hold a line break, or be an object String() cannot print ({ toString: false });
          // keep the framing intact so the data still arrives.
          const line = (value: unknown) =>
            (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/[\r\n]/g, ' ');
          const text = wire
            .map((event) => `event: ${line(event.type)}\nid: ${line(event.seq)}\ndata: ${JSON.stringify(event)}\n\n`)
            .join('');
          const bytes = toBytes(text);
          const items: Received[] = [];
          const chunks = splitAt(
            bytes,
            cuts.map((cut) => Math.floor(cut * bytes.length)),
          );
          for await (const message of decodeSSE(chunksToStream(chunks)))
            items.push(receive(() => parseSSEMessage(message)));
          expect(items).toHaveLength(wire.length);
          checkOutcome(items, runClient(items));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds both outcomes: the generators do reach settled and error', () => {
    const phases = new Set<string>();
    fc.assert(
      fc.property(input, ({ events, corruptions }) => {
        const items = corrupt(events, corruptions).map((event) => receive(() => parseRunEvent(event)));
        phases.add(runClient(items).phase);
      }),
      { numRuns: 300, seed: 42 },
    );
    expect(phases).toEqual(new Set(['settled', 'error']));
  });
});

/** A state with its logs as arrays: `toEqual` cannot see inside an AppendLog (its items are private). */
function comparable(state: RunState): unknown {
  return { ...state, events: state.events.toArray(), logs: state.logs.toArray() };
}

const MOTION_TYPES: ReadonlySet<string> = new Set([
  'text.delta',
  'reasoning.delta',
  'progress',
  'log',
  'tool.started',
  'tool.completed',
]);

describe('the motion fast path (deltas, progress, logs, tools)', () => {
  const input = fc.record({
    retainEvents: fc.constantFrom<RetainEvents>('all', 'structural'),
    events: fc.oneof(randomRun, scenarioRun),
    corruptions: fc.array(corruptionArb, { maxLength: 2 }),
    hiccups: fc.array(
      fc.constantFrom<RunAction>(
        { type: 'client/connected' },
        { type: 'client/reconnecting', attempt: 1, delayMs: 0, reason: 'drop' },
      ),
      { maxLength: 2 },
    ),
  });

  it('gives the state the general path gives, after every action of any event sequence', () => {
    const fastKinds = new Set<string>();
    fc.assert(
      fc.property(input, ({ retainEvents, events, corruptions, hiccups }) => {
        const items = corrupt(events, corruptions).map((event) => receive(() => parseRunEvent(event)));
        const actions: RunAction[] = [
          { type: 'client/start-requested', mode: 'start' },
          { type: 'client/connected' },
          ...hiccups,
          ...items.map(toAction),
        ];
        let fast = createInitialRunState({ retainEvents });
        let general = createInitialRunState({ retainEvents });
        for (const action of actions) {
          if (
            MOTION_TYPES.has(action.type) &&
            fast.phase === 'streaming' &&
            (action as RunEvent).runId === fast.runId &&
            (action as RunEvent).seq > fast.lastSeq
          )
            fastKinds.add(action.type);
          fast = reduceRun(fast, action);
          checkPhaseFields(fast);
          general = action.type.startsWith('client/')
            ? reduceRun(general, action)
            : transitionEvent(general, action as RunEvent).state;
          expect(comparable(fast)).toEqual(comparable(general));
        }
      }),
      { numRuns: 300 },
    );
    expect(fastKinds).toEqual(MOTION_TYPES);
  });
});

describe('effects say what changed, so nobody compares states', () => {
  /** What callers used to find out by comparing the state before and after an action. */
  function effectsByComparison(before: RunState, after: RunState): RunEffect['type'][] {
    const types: RunEffect['type'][] = [];
    if (after.runId !== null && after.runId !== before.runId) types.push('run-identified');
    if (after.phase === 'settled' && after.result !== before.result) types.push('settled');
    if (after.phase === 'error' && after.error !== before.error) types.push('failed');
    if (after.phase === 'detached' && before.phase !== 'detached') types.push('detached');
    return types;
  }

  it('every transition of any sequence has exactly the effects a comparison of its states finds', () => {
    const ends = fc.array(
      fc.constantFrom<RunAction>(
        { type: 'client/detached' },
        { type: 'client/stream-ended' },
        { type: 'client/connection-lost', message: 'reset' },
      ),
      { maxLength: 2 },
    );
    fc.assert(
      fc.property(
        fc.oneof(randomRun, scenarioRun),
        fc.array(corruptionArb, { maxLength: 3 }),
        ends,
        (events, corruptions, tail) => {
          const items = corrupt(events, corruptions).map((event) => receive(() => parseRunEvent(event)));
          const actions: RunAction[] = [
            { type: 'client/start-requested', mode: 'start' },
            { type: 'client/connected' },
            ...items.map(toAction),
            ...tail,
          ];
          let state = createInitialRunState();
          for (const action of actions) {
            const next = transitionRun(state, action);
            checkPhaseFields(next.state);
            expect(next.effects.map((effect) => effect.type)).toEqual(effectsByComparison(state, next.state));
            for (const effect of next.effects) {
              if (effect.type === 'settled') expect(effect.event).toBe(next.state.result);
              if (effect.type === 'failed') expect(effect.error).toBe(next.state.error);
            }
            state = next.state;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('every state has the fields its phase promises (RunStateByPhase)', () => {
  // Every client action, so the reducer's casts (they rest on `applies` and `isListening`) meet every phase.
  const clientAction = fc.constantFrom<RunAction>(
    { type: 'client/start-requested', mode: 'start' },
    { type: 'client/start-requested', mode: 'resume', runId: 'run_prop', lastSeq: 2 },
    { type: 'client/start-requested', mode: 'respond' },
    { type: 'client/connected' },
    { type: 'client/reconnecting', attempt: 1, delayMs: 0, reason: 'drop' },
    { type: 'client/detached' },
    { type: 'client/timed-out', message: 'silent', timeoutMs: 1 },
    { type: 'client/http-error', status: 503, code: null, message: 'down' },
    { type: 'client/protocol-error', message: 'broken' },
    { type: 'client/stream-ended' },
    { type: 'client/connection-lost', message: 'reset' },
  );

  it('after every action of any mix of client actions and events, in any order', () => {
    const phases = new Set<string>();
    fc.assert(
      fc.property(
        fc.oneof(randomRun, scenarioRun),
        fc.array(fc.tuple(fc.nat(), clientAction), { maxLength: 8 }),
        (events, inserted) => {
          const actions: RunAction[] = events.map((event) => toAction(receive(() => parseRunEvent(event))));
          for (const [at, action] of inserted) actions.splice(at % (actions.length + 1), 0, action);
          let state = createInitialRunState();
          for (const action of actions) {
            state = reduceRun(state, action);
            checkPhaseFields(state);
            phases.add(state.phase === 'error' && state.result !== null ? 'error after an outcome' : state.phase);
          }
        },
      ),
      { numRuns: 500 },
    );
    const every: RunPhase[] = ['idle', 'connecting', 'streaming', 'reconnecting', 'settled', 'detached', 'error'];
    expect([...phases].sort()).toEqual([...every, 'error after an outcome'].sort());
  });
});
