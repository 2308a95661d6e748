import type { RunAction } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { scenarioActions } from './scenario-actions.js';
import { scenarioEvents, type ScenarioStep } from './scenario.js';
import { getScenario } from './scenarios.js';

const types = (actions: readonly RunAction[]) => actions.map((action) => action.type);

describe('scenarioActions', () => {
  it('starts, connects, feeds every event, and ends without stream-ended after run.completed', () => {
    const scenario = getScenario('completed-text');
    const actions = scenarioActions(scenario.steps);
    expect(types(actions).slice(0, 2)).toEqual(['client/start-requested', 'client/connected']);
    expect(actions.slice(2).map((action) => ('seq' in action ? action.seq : null))).toEqual(
      scenarioEvents(scenario.steps).map((event) => event.seq),
    );
    expect(actions.at(-1)?.type).toBe('run.completed');
  });

  it('reports a truncated stream as client/stream-ended', () => {
    expect(scenarioActions(getScenario('truncated').steps).at(-1)).toEqual({ type: 'client/stream-ended' });
  });

  it('reconnects after a drop and after a stall', () => {
    expect(types(scenarioActions(getScenario('dropped-mid-stream').steps))).toContain('client/reconnecting');
    const stalled = scenarioActions(getScenario('stalled-heartbeat').steps);
    expect(stalled).toContainEqual({
      type: 'client/reconnecting',
      attempt: 1,
      delayMs: 0,
      reason: 'heartbeat timeout',
    });
  });

  it('replays events from replayFrom after a drop, as duplicates', () => {
    const actions = scenarioActions(getScenario('duplicate-after-resume').steps);
    const seqs = actions.flatMap((action) =>
      'seq' in action && typeof action.seq === 'number' && !action.type.startsWith('client/') ? [action.seq] : [],
    );
    expect(new Set(seqs).size).toBeLessThan(seqs.length);
  });

  it('stops at the first protocol error, naming it', () => {
    const actions = scenarioActions(getScenario('malformed-event').steps);
    expect(actions.at(-1)).toMatchObject({
      type: 'client/protocol-error',
      eventType: 'tool.started',
      path: ['callId'],
    });
    const mismatch = scenarioActions(getScenario('event-name-mismatch').steps);
    expect(mismatch.at(-1)).toMatchObject({ type: 'client/protocol-error', eventType: 'text.delta', path: ['type'] });
  });
});

describe('scenarioActions and pauses', () => {
  it('a pause changes nothing the client does', () => {
    const steps = getScenario('dropped-mid-stream').steps;
    const paused = steps.flatMap((step): ScenarioStep[] => [{ kind: 'pause', ms: 5 }, step]);
    expect(scenarioActions(paused)).toEqual(scenarioActions(steps));
  });
});
