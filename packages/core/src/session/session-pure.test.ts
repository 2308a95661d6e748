import { describe, expect, it } from 'vitest';
import type { RunCompletedEvent, RunSummary } from '../protocol/types.js';
import { createInitialRunState, initialRunState, type RunState, type RunStateByPhase } from '../run/run-state.js';
import { entryStatus, isRunInProgress } from './entry-status.js';
import { historyAfter, leavesGap, mergePage } from './history-paging.js';
import { isBehind } from './known-run.js';
import { markRetried } from './session-entry.js';
import { decideSend } from './session-policy.js';

const summary = (runId: string): RunSummary => ({
  runId,
  sessionId: 'ses_1',
  input: runId,
  createdAt: '2026-12-01T10:00:00Z',
  attempt: 1,
  live: false,
  answers: [],
});
const entry = (runId: string | null) => ({ runId, name: runId ?? 'pending' });
const make = (run: RunSummary) => entry(run.runId);
const names = (entries: readonly { name: string }[]) => entries.map((one) => one.name);

describe('decideSend', () => {
  it.each([
    ['queue', 'none', false, 'send'],
    ['queue', 'none', true, 'queue'],
    ['queue', 'live', false, 'queue'],
    ['queue', 'waiting', false, 'queue'],
    ['reject', 'none', false, 'send'],
    ['reject', 'live', false, 'reject'],
    ['reject', 'waiting', false, 'reject'],
    ['cancel-previous', 'live', false, 'cancel-then-queue'],
    ['cancel-previous', 'waiting', false, 'set-aside-then-send'],
    ['cancel-previous', 'none', true, 'queue'],
  ] as const)('%s while %s (queued ahead: %s) -> %s', (concurrency, hold, queuedAhead, decision) => {
    expect(decideSend(concurrency, hold, queuedAhead)).toBe(decision);
  });
});

describe('leavesGap', () => {
  it('is true until the runs read hold the anchor, the newest run of the last newest page merged', () => {
    const shown = [entry('r1'), entry('r3'), entry(null)];
    expect(leavesGap(shown, [summary('r4'), summary('r5')], 'complete', 'r3')).toBe(true);
    expect(leavesGap(shown, [summary('r3'), summary('r4'), summary('r5')], 'complete', 'r3')).toBe(false);
    // This tab's own run, the oldest read, closes nothing: another tab's runs may sit just below it (r4 here).
    const ownSent = [entry('r1'), entry('r3'), entry('r5')];
    expect(leavesGap(ownSent, [summary('r5'), summary('r6')], 'complete', 'r3')).toBe(true);
  });

  it('with no anchor (a conversation started here) is true until the runs read hold the first run shown', () => {
    const started = [entry('r1'), entry('r6')];
    expect(leavesGap(started, [summary('r5'), summary('r6')], 'complete', null)).toBe(true);
    expect(leavesGap(started, [summary('r1'), summary('r2'), summary('r5'), summary('r6')], 'complete', null)).toBe(
      false,
    );
    // A conversation that had no run: every run listed belongs in it, when it says it holds them all.
    expect(leavesGap([entry(null)], [summary('r4')], 'complete', null)).toBe(true);
    expect(leavesGap([], [summary('r4')], 'loading', null)).toBe(false);
  });
});

describe('mergePage', () => {
  it('puts an older page before everything, skipping runs already shown', () => {
    const merged = mergePage([entry('r3'), entry('r4')], [summary('r1'), summary('r2'), summary('r3')], 'older', make);
    expect(names(merged.entries)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(names(merged.added)).toEqual(['r1', 'r2']);
  });

  it('puts runs of the newest page after the run listed before them, and before messages not sent yet', () => {
    const merged = mergePage([entry('r1'), entry(null)], [summary('r1'), summary('r2')], 'newest', make);
    expect(names(merged.entries)).toEqual(['r1', 'r2', 'pending']);
  });

  it('puts runs listed before a known run in front of it (a first page arriving after a local send)', () => {
    const merged = mergePage([entry('r3')], [summary('r1'), summary('r2'), summary('r3')], 'newest', make);
    expect(names(merged.entries)).toEqual(['r1', 'r2', 'r3']);
  });

  it('keeps the identity of entries already shown', () => {
    const known = entry('r1');
    expect(mergePage([known], [summary('r1')], 'newest', make).entries[0]).toBe(known);
  });

  it('says more or complete from the cursor', () => {
    expect(historyAfter('before-3')).toBe('more');
    expect(historyAfter(null)).toBe('complete');
  });
});

describe('entryStatus', () => {
  // Only the fields entryStatus reads: a partial state, not one the reducer would make.
  const state = (patch: Partial<RunState>): RunState => ({ ...createInitialRunState(), ...patch }) as RunState;
  it.each([
    ['queued', {}, 'queued'],
    ['failed', {}, 'failed-to-send'],
    ['sent', { phase: 'connecting' }, 'sending'],
    ['sent', { phase: 'connecting', runId: 'r1' }, 'live'],
    ['sent', { phase: 'streaming' }, 'live'],
    ['sent', { phase: 'settled', status: 'WAITING' }, 'waiting'],
    ['sent', { phase: 'settled', status: 'FAILED' }, 'settled'],
    ['sent', { phase: 'error' }, 'failed-to-send'],
    ['sent', { phase: 'error', runId: 'r1' }, 'interrupted'],
    ['sent', { phase: 'detached', runId: 'r1' }, 'interrupted'],
  ] as const)('%s with %j is %s', (delivery, patch, status) => {
    expect(entryStatus(delivery, state(patch as Partial<RunState>))).toBe(status);
  });

  it('knows a 409 run_in_progress refusal from other HTTP errors', () => {
    const refused = (status: number, code: string | null) =>
      state({ phase: 'error', error: { kind: 'http', status, code, message: '' } });
    expect(isRunInProgress(refused(409, 'run_in_progress'))).toBe(true);
    expect(isRunInProgress(refused(409, 'interaction_answered'))).toBe(false);
    expect(isRunInProgress(refused(503, null))).toBe(false);
  });
});

describe('markRetried', () => {
  it('names, for each entry, the nearest later entry with the same input (its retry), and null when none', () => {
    const records = ['a', 'b', 'a', 'c', 'a'].map((input, index) => ({
      key: `k${index}`,
      input,
      retriedAs: 'stale' as string | null,
    }));
    markRetried(records);
    expect(records.map((record) => record.retriedAs)).toEqual(['k2', null, 'k4', null, null]);
  });
});

describe('isBehind', () => {
  const completed = (attempt: number, seq: number): RunCompletedEvent => ({
    type: 'run.completed',
    runId: 'r1',
    sessionId: 'ses_1',
    seq,
    attempt,
    output: { status: 'COMPLETED', assistantText: 'done' },
  });
  const settledAt = (attempt: number, seq: number): RunState => {
    const result = completed(attempt, seq);
    const idle = initialRunState as RunStateByPhase['idle'];
    const { output } = result;
    if (output.status !== 'COMPLETED') throw new Error('completed() makes a COMPLETED result');
    return { ...idle, phase: 'settled', attempt, result, output, status: 'COMPLETED', payload: { status: 'absent' } };
  };
  const listed = (attempt: number, live: boolean, seq?: number): RunSummary => ({
    ...summary('r1'),
    attempt,
    live,
    ...(seq === undefined ? {} : { result: completed(attempt, seq) }),
  });

  it.each([
    ['a newer attempt, live', true, listed(2, true)],
    ['a newer attempt, settled', true, listed(2, false, 40)],
    ['its attempt settled with a later event', true, listed(1, false, 30)],
    ['its attempt, listed live before it settled here', false, listed(1, true)],
    ['its attempt, settled the same', false, listed(1, false, 22)],
  ] as const)('an entry settled at attempt 1 is behind a listing of %s: %s', (_, behind, run) => {
    expect(isBehind(settledAt(1, 22), run)).toBe(behind);
  });

  it('is not behind a listing of an earlier attempt (read before an answer given here)', () => {
    expect(isBehind(settledAt(2, 40), listed(1, false, 22))).toBe(false);
  });

  it('leaves an entry that is not settled to its stream, whatever the listing says', () => {
    const streaming = { ...initialRunState, phase: 'streaming', attempt: 1 } as RunState;
    expect(isBehind(streaming, listed(2, false, 40))).toBe(false);
  });
});
