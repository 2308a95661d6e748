import { createEventFactory, getScenario, scenarioActions } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../protocol/protocol-error.js';
import { parseRunEvent } from '../protocol/parse-run-event.js';
import { protocolErrorAction } from './protocol-error-action.js';
import { toProtocolRunError } from './protocol-run-error.js';
import { reduceRun, transitionRun } from './reduce-run.js';
import type { RunAction } from './run-action.js';
import type { RunEffect } from './run-effect.js';
import { createInitialRunState, isAwaitingOutcome, isFollowing, type RunPhase, type RunState } from './run-state.js';

const start: RunAction = { type: 'client/start-requested', mode: 'start' };
const connected: RunAction = { type: 'client/connected' };

/** Folds actions through `transitionRun`, keeping every effect in order. */
function run(
  actions: readonly RunAction[],
  from: RunState = createInitialRunState(),
): { state: RunState; effects: RunEffect[] } {
  let state = from;
  const effects: RunEffect[] = [];
  for (const action of actions) {
    const next = transitionRun(state, action);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const e = createEventFactory({ runId: 'run_fx' });
const started = parseRunEvent(e.started(1));
const delta = parseRunEvent(e.text('Hel'));
const completed = parseRunEvent(e.completed({ status: 'COMPLETED', assistantText: 'Hello' }));
const streaming = run([start, connected, started, delta]).state;

describe('transitionRun says what happened', () => {
  it('names the run once, when its first event arrives', () => {
    const { effects } = run([start, connected, started, delta]);
    expect(effects).toEqual([{ type: 'run-identified', runId: 'run_fx' }]);
  });

  it('names the run at once when a resume asks for it by id, and not again when its events come', () => {
    const resume: RunAction = { type: 'client/start-requested', mode: 'resume', runId: 'run_fx' };
    expect(run([resume, connected, started]).effects).toEqual([{ type: 'run-identified', runId: 'run_fx' }]);
  });

  it('settles with the run.completed event itself, once: a replayed duplicate settles nothing', () => {
    const first = transitionRun(streaming, completed);
    expect(first.effects).toEqual([{ type: 'settled', event: completed }]);
    expect(first.effects[0]?.type === 'settled' && first.effects[0].event).toBe(first.state.result);
    expect(transitionRun(first.state, completed).effects).toEqual([]);
  });

  it('a run whose first event is its outcome is named, then settled, in that order', () => {
    const { effects } = run([start, connected, completed]);
    expect(effects.map((effect) => effect.type)).toEqual(['run-identified', 'settled']);
  });

  it('fails with the error kept in state.error, for every way a run stops short of an outcome', () => {
    const stops: RunAction[] = [
      { type: 'client/connection-lost', message: 'reset' },
      { type: 'client/stream-ended' },
      { type: 'client/timed-out', message: 'slow', timeoutMs: 5 },
      { type: 'client/http-error', status: 502, code: null, message: 'bad gateway' },
      { type: 'client/protocol-error', message: 'bad event' },
      parseRunEvent(createEventFactory({ runId: 'run_other', firstSeq: 99 }).text('x')),
    ];
    for (const stop of stops) {
      const next = transitionRun(streaming, stop);
      expect(next.state.phase).toBe('error');
      expect(next.effects).toEqual([{ type: 'failed', error: next.state.error }]);
    }
  });

  it('fails again when a settled attempt breaks the protocol afterwards, and keeps the outcome', () => {
    const settled = transitionRun(streaming, completed).state;
    const late = parseRunEvent(e.text('late'));
    const next = transitionRun(settled, late);
    expect(next.effects).toEqual([
      { type: 'failed', error: expect.objectContaining({ kind: 'protocol', seq: late.seq }) },
    ]);
    expect(next.state.result).toBe(completed);
  });

  it('detaches while waiting for an outcome, and not after it', () => {
    expect(transitionRun(streaming, { type: 'client/detached' }).effects).toEqual([{ type: 'detached' }]);
    const settled = transitionRun(streaming, completed).state;
    expect(transitionRun(settled, { type: 'client/detached' })).toEqual({ state: settled, effects: [] });
  });

  it('has no effect for motion, reconnect info, or anything after the run failed or detached', () => {
    expect(transitionRun(streaming, parseRunEvent(e.text('lo'))).effects).toEqual([]);
    expect(
      transitionRun(streaming, { type: 'client/reconnecting', attempt: 1, delayMs: 5, reason: 'drop' }).effects,
    ).toEqual([]);
    for (const ended of [
      transitionRun(streaming, { type: 'client/stream-ended' }).state,
      transitionRun(streaming, { type: 'client/detached' }).state,
    ]) {
      for (const action of [
        completed,
        { type: 'client/connection-lost', message: 'x' },
        { type: 'client/protocol-error', message: 'x' },
      ] satisfies RunAction[]) {
        expect(transitionRun(ended, action)).toEqual({ state: ended, effects: [] });
      }
    }
  });

  it('gives the same state as reduceRun for a whole scenario, with one settled effect per settled attempt', () => {
    const actions = scenarioActions(getScenario('waiting-approval').steps);
    const { state, effects } = run(actions);
    const reduced = actions.reduce<RunState>((current, action) => reduceRun(current, action), createInitialRunState());
    expect(state).toEqual(reduced);
    expect(state.events.toArray()).toEqual(reduced.events.toArray());
    expect(effects.filter((effect) => effect.type === 'settled')).toEqual([{ type: 'settled', event: state.result }]);
  });
});

describe('one mapping from a protocol error to a RunError', () => {
  it('keeps what the parser knew, and says null for what it did not', () => {
    const error = new ProtocolError('expected a string', {
      eventType: 'text.delta',
      seq: 4,
      path: ['delta'],
      raw: { delta: 1 },
    });
    expect(toProtocolRunError(error)).toEqual({
      kind: 'protocol',
      message: error.message,
      eventType: 'text.delta',
      seq: 4,
      path: ['delta'],
      raw: { delta: 1 },
    });
    expect(toProtocolRunError(new ProtocolError('not JSON'))).toMatchObject({ eventType: null, seq: null, path: [] });
  });

  it('reaches state.error unchanged through the client/protocol-error action', () => {
    const error = new ProtocolError('expected a string', {
      eventType: 'text.delta',
      seq: 9,
      path: ['delta'],
      raw: 'x',
    });
    const next = transitionRun(streaming, protocolErrorAction(error));
    expect(next.state.error).toEqual(toProtocolRunError(error));
    // Round trip: a RunError of kind protocol, as an action again, is the same error.
    expect(transitionRun(streaming, protocolErrorAction(toProtocolRunError(error))).state.error).toEqual(
      next.state.error,
    );
  });
});

describe('the phase vocabulary', () => {
  const phases: RunPhase[] = ['idle', 'connecting', 'streaming', 'reconnecting', 'settled', 'detached', 'error'];

  it('awaits an outcome until the attempt settles, fails or is detached: idle included', () => {
    expect(phases.filter(isAwaitingOutcome)).toEqual(['idle', 'connecting', 'streaming', 'reconnecting']);
  });

  it('follows only over a connection: not idle, where nothing was asked yet', () => {
    expect(phases.filter(isFollowing)).toEqual(['connecting', 'streaming', 'reconnecting']);
  });
});
