import {
  createEventFactory,
  getScenario,
  invoiceSchema,
  sampleInvoice,
  scenarioActions,
  type WireEvent,
} from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { parseRunEvent } from '../protocol/parse-run-event.js';
import type { RunEvent } from '../protocol/types.js';
import { AppendLog } from './append-log.js';
import { play, reduceAll } from './play-scenario.test-helper.js';
import type { RunAction } from './run-action.js';
import { reduceRun } from './reduce-run.js';
import { createInitialRunState, initialRunState, type RunState } from './run-state.js';
import type { StandardSchemaV1 } from './standard-schema.js';

const start: RunAction = { type: 'client/start-requested', mode: 'start' };
const connected: RunAction = { type: 'client/connected' };
const streamEnded: RunAction = { type: 'client/stream-ended' };

function reduce<P>(state: RunState<P>, actions: readonly RunAction[]): RunState<P> {
  return actions.reduce<RunState<P>>((current, action) => reduceRun(current, action), state);
}

const parse = (events: readonly WireEvent[]): RunEvent[] => events.map((event) => parseRunEvent(event));

/** What a careful client feeds the reducer for a shared scenario. */
function actionsOf(name: string) {
  return scenarioActions(getScenario(name).steps);
}

describe('settled only through run.completed', () => {
  it('no other event settles, even a full answer followed by agent.idle', () => {
    const actions = actionsOf('completed-text');
    const withoutTerminal = actions.filter((action) => action.type !== 'run.completed');
    const states = reduceAll(initialRunState, [...withoutTerminal, streamEnded]);
    expect(states.some((state) => state.phase === 'settled')).toBe(false);
    expect(states.at(-1)).toMatchObject({ phase: 'error', result: null, output: null, status: null });
  });

  it('run.completed settles and sets result, output, status and attempt', () => {
    const state = play(getScenario('completed-text'));
    const terminal = state.events.at(-1);
    expect(terminal?.type).toBe('run.completed');
    expect(state.result).toBe(terminal);
    expect(state).toMatchObject({ phase: 'settled', status: 'COMPLETED', attempt: 1, error: null, reconnect: null });
  });

  it('a settled state ignores client happenings that come after the outcome', () => {
    const settled = play(getScenario('completed-text'));
    for (const action of [
      streamEnded,
      connected,
      { type: 'client/connection-lost', message: 'closed' },
      { type: 'client/reconnecting', attempt: 1, delayMs: 10, reason: 'x' },
      { type: 'client/timed-out', message: 'slow', timeoutMs: 5 },
      { type: 'client/http-error', status: 502, code: null, message: 'bad gateway' },
      { type: 'client/detached' },
    ] satisfies RunAction[]) {
      expect(reduceRun(settled, action)).toBe(settled);
    }
  });
});

describe('no outcome without run.completed', () => {
  const text = 'The migration plan has three phases. First, ';

  it('a stream that ends early is an error of kind truncated, whatever text streamed', () => {
    const state = play(getScenario('truncated'));
    expect(state).toMatchObject({
      phase: 'error',
      draftText: text,
      output: null,
      result: null,
      status: null,
      payload: null,
    });
    expect(state.error).toMatchObject({ kind: 'truncated', lastSeq: state.lastSeq });
    expect(state.events.length).toBeGreaterThan(0);
  });

  it('a dropped connection that cannot be resumed is an error of kind transport, the draft kept', () => {
    const actions = actionsOf('truncated').filter((action) => action.type !== 'client/stream-ended');
    const state = reduce(initialRunState, [...actions, { type: 'client/connection-lost', message: 'socket hang up' }]);
    expect(state).toMatchObject({
      phase: 'error',
      error: { kind: 'transport', message: 'socket hang up' },
      draftText: text,
      output: null,
    });
  });

  it('a timeout or HTTP error is an error of that kind, never an outcome', () => {
    const streaming = reduce(initialRunState, actionsOf('truncated').slice(0, -1));
    expect(streaming.phase).toBe('streaming');
    expect(reduceRun(streaming, { type: 'client/timed-out', message: 'no answer', timeoutMs: 30_000 })).toMatchObject({
      phase: 'error',
      error: { kind: 'timeout', timeoutMs: 30_000 },
      output: null,
    });
    expect(
      reduceRun(streaming, { type: 'client/http-error', status: 503, code: 'unavailable', message: 'down' }),
    ).toMatchObject({
      phase: 'error',
      error: { kind: 'http', status: 503, code: 'unavailable' },
      output: null,
    });
  });
});

describe('events after run.completed', () => {
  it('are a protocol error naming the event, while the real result stays readable', () => {
    const state = play(getScenario('event-after-completed'));
    const extra = state.events.at(-1);
    expect(extra).toMatchObject({ type: 'text.delta', delta: ' More' });
    expect(state.phase).toBe('error');
    expect(state.error).toMatchObject({ kind: 'protocol', eventType: 'text.delta', seq: extra?.seq });
    expect(state.error?.message).toMatch(/after run\.completed/);
    expect(state).toMatchObject({ status: 'COMPLETED', output: { assistantText: 'Done.' }, draftText: 'Done.' });
    expect(state.result?.type).toBe('run.completed');
    expect(state.lastSeq).toBe(extra?.seq);
  });

  it('a replayed copy of run.completed itself is a duplicate, not an error', () => {
    const settled = play(getScenario('completed-text'));
    expect(reduceRun(settled, settled.result as RunEvent)).toBe(settled);
  });
});

describe('duplicates', () => {
  it('an event whose seq is not above lastSeq is dropped silently: the very same state comes back', () => {
    const actions = actionsOf('duplicate-after-resume');
    const states = reduceAll(initialRunState, actions);
    let dropped = 0;
    actions.forEach((action, index) => {
      const before = states[index] as RunState;
      if (action.type.startsWith('client/') || (action as RunEvent).seq > before.lastSeq) return;
      dropped += 1;
      expect(states[index + 1]).toBe(before);
    });
    expect(dropped).toBeGreaterThan(0);
    expect(states.at(-1)).toMatchObject({
      phase: 'settled',
      draftText: getScenario('duplicate-after-resume').expected.draftText,
    });
  });

  it('an older seq with different content is still dropped', () => {
    const e = createEventFactory();
    const state = reduce(initialRunState, [start, ...parse([e.started(), e.received(), e.text('one')])]);
    expect(reduceRun(state, parseRunEvent({ ...e.text('two'), seq: 2 }))).toBe(state);
  });
});

describe('unknown event types', () => {
  it('change nothing but events, eventCount and lastSeq', () => {
    const actions = actionsOf('unknown-event-types');
    const states = reduceAll(initialRunState, actions);
    let unknown = 0;
    actions.forEach((action, index) => {
      if (action.type !== 'unknown') return;
      unknown += 1;
      const { events: beforeEvents, lastSeq: _beforeSeq, eventCount: count, ...before } = states[index] as RunState;
      const { events: afterEvents, lastSeq, eventCount, ...after } = states[index + 1] as RunState;
      expect(after).toEqual(before);
      expect(lastSeq).toBe(action.seq);
      expect(eventCount).toBe(count + 1);
      expect(afterEvents.length).toBe(beforeEvents.length + 1);
      expect(afterEvents.at(-1)).toBe(action);
    });
    expect(unknown).toBe(2);
  });

  it('change nothing in a state where everything is set: tools, progress, logs, reconnecting', () => {
    const scenario = getScenario('tool-error');
    const actions = actionsOf('tool-error').filter(
      (action) => action.type !== 'run.completed' && action.type !== 'client/stream-ended',
    );
    const busy = reduce(initialRunState, [
      ...actions,
      { type: 'client/reconnecting', attempt: 1, delayMs: 500, reason: 'dropped' },
    ]);
    expect(busy).toMatchObject({ phase: 'reconnecting', progress: { label: 'Writing the answer' } });
    expect(busy.tools.length).toBe(2);
    const event = parseRunEvent({
      type: 'usage.reported',
      runId: scenario.runId,
      sessionId: scenario.sessionId,
      seq: busy.lastSeq + 1,
      tokens: 5,
    });
    const { events: _before, lastSeq: _beforeSeq, eventCount: _count, ...before } = busy;
    const { events, lastSeq, eventCount, ...after } = reduceRun(busy, event);
    expect(after).toEqual(before);
    expect(eventCount).toBe(busy.eventCount + 1);
    expect(lastSeq).toBe(event.seq);
    expect(events.at(-1)).toBe(event);
  });
});

describe('events of another run', () => {
  it('are a protocol error naming the runId', () => {
    const e = createEventFactory({ runId: 'run_a' });
    const other = createEventFactory({ runId: 'run_b', firstSeq: 3 });
    const state = reduce(initialRunState, [start, ...parse([e.started(), e.received(), other.text('stray')])]);
    expect(state.phase).toBe('error');
    expect(state.error).toMatchObject({ kind: 'protocol', path: ['runId'], seq: 3, eventType: 'text.delta' });
    expect(state.error?.message).toContain('run_b');
  });
});

describe('finishReason', () => {
  function finishOf(build: (e: ReturnType<typeof createEventFactory>) => WireEvent[]): string | null | undefined {
    const e = createEventFactory();
    return reduce(initialRunState, [start, ...parse(build(e))]).finishReason;
  }
  const done = (e: ReturnType<typeof createEventFactory>) => e.completed({ status: 'COMPLETED', assistantText: 'ok' });

  it('is the last root-session turn/end, ignoring subagent sessions and turns after agent.idle', () => {
    expect(play(getScenario('subagent-turn-end')).finishReason).toBe('completed');
    expect(play(getScenario('max-tokens')).finishReason).toBe('max-tokens');
  });

  it('is the LAST root turn/end of the interval', () => {
    expect(
      finishOf((e) => [e.started(), e.received(), e.turnEnd('tool-calls'), e.turnEnd('max-tokens'), e.idle(), done(e)]),
    ).toBe('max-tokens');
  });

  it('is null when the interval holds no root turn/end', () => {
    expect(finishOf((e) => [e.started(), e.received(), e.text('hi'), e.idle(), done(e)])).toBeNull();
    expect(
      finishOf((e) => [e.started(), e.received(), e.turnEnd('completed', 'ses_sub'), e.idle(), done(e)]),
    ).toBeNull();
  });

  it('ignores turn/end before message.received', () => {
    expect(finishOf((e) => [e.started(), e.turnEnd('error'), e.received(), e.idle(), done(e)])).toBeNull();
  });

  it('ends the interval at run.completed when agent.idle never comes', () => {
    expect(finishOf((e) => [e.started(), e.received(), e.turnEnd('cancelled'), done(e)])).toBe('cancelled');
  });

  it('ignores a turn/end after agent.idle, and a second message.received does not reopen the interval', () => {
    expect(
      finishOf((e) => [
        e.started(),
        e.received(),
        e.turnEnd('completed'),
        e.idle(),
        e.received(),
        e.turnEnd('error'),
        done(e),
      ]),
    ).toBe('completed');
  });

  it('is unknown (undefined), not null, when the root session is unknown (no run.started seen)', () => {
    expect(finishOf((e) => [e.received(), e.turnEnd('completed'), done(e)])).toBeUndefined();
  });

  it("is opened only by the root session's message.received, not a sub-agent's", () => {
    const sub = (e: ReturnType<typeof createEventFactory>) =>
      e.event('message.received', { messageId: 'msg_sub' }, 'ses_sub');
    expect(
      finishOf((e) => [
        e.started(),
        sub(e),
        e.turnEnd('max-tokens'),
        e.received(),
        e.turnEnd('completed'),
        e.idle(),
        done(e),
      ]),
    ).toBe('completed');
    expect(finishOf((e) => [e.started(), sub(e), e.turnEnd('max-tokens'), done(e)])).toBeNull();
  });

  it('is cleared when the run ends without an outcome: no finish reason for a failed stream', () => {
    const e = createEventFactory();
    const streamed = reduce(initialRunState, [start, ...parse([e.started(), e.received(), e.turnEnd('completed')])]);
    expect(streamed.finishReason).toBe('completed');
    const failures: RunAction[] = [
      { type: 'client/stream-ended' },
      { type: 'client/connection-lost', message: 'reset' },
      { type: 'client/timed-out', message: 'slow', timeoutMs: 10 },
      { type: 'client/http-error', status: 502, code: null, message: 'bad gateway' },
      { type: 'client/protocol-error', message: 'bad event' },
      { type: 'client/detached' },
    ];
    for (const failure of failures) expect(reduceRun(streamed, failure).finishReason, failure.type).toBeUndefined();
  });

  it('keeps the finish reason of an outcome that a later protocol error followed', () => {
    const e = createEventFactory();
    const settled = reduce(initialRunState, [
      start,
      ...parse([e.started(), e.received(), e.turnEnd('max-tokens'), e.idle(), done(e)]),
    ]);
    const broken = reduceRun(settled, { type: 'client/protocol-error', message: 'trailing garbage' });
    expect(broken).toMatchObject({ phase: 'error', finishReason: 'max-tokens', status: 'COMPLETED' });
  });

  it('starts over with each attempt', () => {
    const scenario = getScenario('waiting-text');
    const first = play(scenario);
    expect(first.finishReason).toBe('tool-calls');
    const e = createEventFactory({ runId: scenario.runId, firstSeq: first.lastSeq + 1 });
    const second = reduce(first, [
      { type: 'client/start-requested', mode: 'respond' },
      ...parse([e.started(2), e.received(), e.idle()]),
    ]);
    expect(second.finishReason).toBeNull();
  });
});

describe('payload', () => {
  it('is absent when COMPLETED carries no finalizedPayload', () => {
    expect(play(getScenario('completed-text')).payload).toEqual({ status: 'absent' });
  });

  it("is valid, and typed by the app's schema, when it passes", () => {
    const actions = actionsOf('completed-payload');
    const state = reduce(createInitialRunState({ payloadSchema: invoiceSchema }), actions);
    expect(state.payload).toEqual({ status: 'valid', value: sampleInvoice });
    if (state.payload?.status === 'valid') expect(state.payload.value.vendor).toBe('Northwind Traders');
    expect(state.output?.assistantText).not.toBe(JSON.stringify(sampleInvoice));
  });

  it('is kept as invalid, with issues, when it fails the schema: not dropped, not a protocol error', () => {
    const state = play(getScenario('completed-invalid-payload'));
    expect(state).toMatchObject({ phase: 'settled', status: 'COMPLETED', error: null });
    if (state.payload?.status !== 'invalid') throw new Error(`expected invalid, got ${state.payload?.status}`);
    expect(state.payload.raw).toMatchObject({ currency: 'EURO', total: '1260.50' });
    expect(state.payload.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['currency', 'total']),
    );
  });

  it('is passed through as valid when the app gave no schema', () => {
    const state = reduce(initialRunState, actionsOf('completed-invalid-payload'));
    expect(state.payload).toMatchObject({ status: 'valid', value: { currency: 'EURO' } });
  });

  it('is null for outputs other than COMPLETED', () => {
    for (const name of ['failed-retryable', 'cancelled', 'waiting-form'])
      expect(play(getScenario(name)).payload).toBeNull();
  });

  it('reports an asynchronous schema as invalid instead of waiting: the reducer stays pure', () => {
    const asyncSchema: StandardSchemaV1<unknown, unknown> = {
      '~standard': { version: 1, vendor: 'test', validate: (value) => Promise.resolve({ value }) },
    };
    const state = reduce(createInitialRunState({ payloadSchema: asyncSchema }), actionsOf('completed-payload'));
    expect(state.payload).toMatchObject({
      status: 'invalid',
      raw: sampleInvoice,
      issues: [{ message: expect.stringMatching(/asynchronous/) }],
    });
  });
});

describe('client actions', () => {
  const e = createEventFactory();
  const opening = parse([e.started(), e.received(), e.text('Hello')]);
  const streaming = reduce(initialRunState, [start, connected, ...opening]);

  it('start-requested → connecting, connected → streaming', () => {
    const connecting = reduceRun(initialRunState, start);
    expect(connecting.phase).toBe('connecting');
    expect(reduceRun(connecting, connected).phase).toBe('streaming');
    expect(streaming).toMatchObject({
      phase: 'streaming',
      runId: 'run_1',
      sessionId: 'ses_root',
      attempt: 1,
      draftText: 'Hello',
    });
  });

  it('reconnecting shows why, and the next event or connection goes back to streaming', () => {
    const reconnecting = reduceRun(streaming, {
      type: 'client/reconnecting',
      attempt: 2,
      delayMs: 800,
      reason: 'connection dropped',
    });
    expect(reconnecting).toMatchObject({
      phase: 'reconnecting',
      reconnect: { attempt: 2, delayMs: 800, reason: 'connection dropped' },
    });
    expect(reduceRun(reconnecting, connected)).toMatchObject({ phase: 'streaming', reconnect: null });
    expect(reduceRun(reconnecting, parseRunEvent(e.text(' again')))).toMatchObject({
      phase: 'streaming',
      reconnect: null,
    });
  });

  it('detached stops listening: later events and endings change nothing', () => {
    const detached = reduceRun(streaming, { type: 'client/detached' });
    expect(detached).toMatchObject({ phase: 'detached', draftText: 'Hello', error: null, output: null });
    const more = createEventFactory({ firstSeq: streaming.lastSeq + 1 });
    expect(reduceRun(detached, parseRunEvent(more.completed({ status: 'COMPLETED', assistantText: 'x' })))).toBe(
      detached,
    );
    expect(reduceRun(detached, streamEnded)).toBe(detached);
    expect(reduceRun(detached, { type: 'client/protocol-error', message: 'late' })).toBe(detached);
  });

  it('a detached run can be resumed from where it stopped', () => {
    const detached = reduceRun(streaming, { type: 'client/detached' });
    const resumed = reduceRun(detached, {
      type: 'client/start-requested',
      mode: 'resume',
      runId: 'run_1',
      lastSeq: detached.lastSeq,
    });
    expect(resumed).toMatchObject({ phase: 'connecting', runId: 'run_1', lastSeq: detached.lastSeq, draftText: '' });
    expect(resumed.events.length).toBe(0);
    expect(reduceRun(resumed, opening[0] as RunEvent)).toBe(resumed);
  });

  it('a protocol error reported by the client names what the parser found', () => {
    const state = reduceRun(streaming, {
      type: 'client/protocol-error',
      message: 'bad',
      eventType: 'turn/end',
      seq: 9,
      path: ['reason', 'kind'],
      raw: { x: 1 },
    });
    expect(state).toMatchObject({
      phase: 'error',
      error: { kind: 'protocol', eventType: 'turn/end', seq: 9, path: ['reason', 'kind'], raw: { x: 1 } },
    });
    expect(state.draftText).toBe('Hello');
  });

  it('a protocol error after settling keeps the result readable', () => {
    const settled = play(getScenario('completed-text'));
    const state = reduceRun(settled, { type: 'client/protocol-error', message: 'trailing garbage' });
    expect(state).toMatchObject({ phase: 'error', error: { kind: 'protocol' }, status: 'COMPLETED' });
    expect(state.result).toBe(settled.result);
  });

  it('the first error wins; later failures do not overwrite it', () => {
    const failed = reduceRun(streaming, { type: 'client/connection-lost', message: 'first' });
    for (const action of [
      streamEnded,
      { type: 'client/protocol-error', message: 'second' },
      { type: 'client/timed-out', message: 't', timeoutMs: 1 },
    ] satisfies RunAction[]) {
      expect(reduceRun(failed, action)).toBe(failed);
    }
  });

  it('start after an error begins a clean run', () => {
    const failed = reduceRun(streaming, streamEnded);
    const fresh = reduceRun(failed, start);
    expect(fresh).toMatchObject({
      phase: 'connecting',
      runId: null,
      lastSeq: 0,
      draftText: '',
      error: null,
      logs: AppendLog.empty(),
    });
    expect(fresh.events.length).toBe(0);
  });

  it('respond keeps events and logs across attempts but resets tools, draft, reasoning and progress', () => {
    const settled = play(getScenario('waiting-approval'));
    const withActivity = {
      ...settled,
      tools: [
        { callId: 'c', name: 'n', status: 'running', input: 1, output: undefined, startedSeq: 1, completedSeq: null },
      ],
    } as RunState;
    const answered = reduceRun(withActivity, { type: 'client/start-requested', mode: 'respond' });
    expect(answered).toMatchObject({
      phase: 'connecting',
      draftText: '',
      reasoning: '',
      tools: [],
      progress: null,
      runId: settled.runId,
      lastSeq: settled.lastSeq,
    });
    expect(answered.events).toBe(settled.events);
    expect(answered.logs).toBe(settled.logs);
  });
});

describe('motion', () => {
  it('accumulates reasoning, progress, logs and tools by callId', () => {
    const state = play(getScenario('tool-error'));
    expect(state.reasoning).toBe('Reading the request. Planning the answer.');
    expect(state.progress).toEqual({ label: 'Writing the answer', fraction: 0.9 });
    expect(state.logs.toArray()).toEqual([
      { seq: expect.any(Number), level: 'warn', message: 'weather.forecast timed out after 5s' },
    ]);
    expect(state.tools.map((tool) => [tool.callId, tool.name, tool.status])).toEqual([
      ['call_weather', 'weather.forecast', 'failed'],
      ['call_cache', 'cache.lookup', 'succeeded'],
    ]);
    expect(state.tools[0]).toMatchObject({ input: { city: 'Oslo' }, output: { error: 'timeout' } });
    expect(state.status).toBe('COMPLETED');
  });

  it('a tool.completed without tool.started still records the call', () => {
    const e = createEventFactory();
    const state = reduce(initialRunState, [start, ...parse([e.started(), e.toolCompleted('call_x', 42)])]);
    expect(state.tools).toEqual([
      { callId: 'call_x', name: '', status: 'succeeded', input: undefined, output: 42, startedSeq: 2, completedSeq: 2 },
    ]);
  });
});

describe('immutability and cost', () => {
  it('never changes a state it was given: an older state never sees later events', () => {
    const actions = actionsOf('tool-error');
    const states = reduceAll(initialRunState, actions);
    const snapshots = states.map((state) => JSON.stringify(state));
    // Branch from a middle state: the branch must not leak into the main line, nor the main line into it.
    const middle = Math.floor(states.length / 2);
    const base = states[middle] as RunState;
    const branched = reduceRun(
      base,
      parseRunEvent({ ...createEventFactory().text('branch'), seq: base.lastSeq + 1, runId: 'run_tool_error' }),
    );
    expect(branched.events.length).toBe(base.events.length + 1);
    expect(branched.events.at(-1)).not.toBe(states[middle + 1]?.events.at(-1));
    states.forEach((state, index) => expect(JSON.stringify(state)).toBe(snapshots[index]));
    states.forEach((state, index) => {
      const events = actions.slice(0, index).filter((action) => !action.type.startsWith('client/'));
      expect(state.events.toArray()).toEqual(events);
    });
  });

  it('AppendLog: appending to an older log branches with a copy, the newest log appends in place', () => {
    const a = AppendLog.empty<number>().append(1).append(2);
    const b = a.append(3);
    const c = a.append(4);
    expect([...a]).toEqual([1, 2]);
    expect([...b]).toEqual([1, 2, 3]);
    expect([...c]).toEqual([1, 2, 4]);
    expect(b.sharesStorageWith(a)).toBe(true);
    expect(c.sharesStorageWith(a)).toBe(false);
    expect(a.at(-1)).toBe(2);
    expect(a.at(2)).toBeUndefined();
    expect(a.toArray()).toBe(a.toArray());
    expect(Object.isFrozen(a.toArray())).toBe(true);
    expect(JSON.stringify({ log: b })).toBe('{"log":[1,2,3]}');
    expect(AppendLog.from([5, 6]).append(7).toArray()).toEqual([5, 6, 7]);
  });

  it('reduces 100,000 text deltas without copying the event log, each state a new object', () => {
    const e = createEventFactory({ runId: 'run_big' });
    const first = reduce(initialRunState, [start, connected, ...parse([e.started(), e.received()])]);
    let state = first;
    const template = parseRunEvent(e.text('x'));
    let seq = template.seq;
    for (let i = 0; i < 100_000; i++) {
      const next = reduceRun(state, { ...template, seq: seq++ });
      if (next === state) throw new Error(`delta ${i} was not applied`);
      state = next;
    }
    expect(state.events.length).toBe(100_002);
    expect(state.draftText.length).toBe(100_000);
    // One backing array from the first event to the last: no append copied the log.
    expect(state.events.sharesStorageWith(first.events)).toBe(true);
    expect(first.events.length).toBe(2);
    expect(first.draftText).toBe('');
  });
});
