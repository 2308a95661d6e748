import { describe, expect, it, vi } from 'vitest';
import { createScenarioRun } from './scenario-run.js';
import { getScenario } from './scenarios.js';

describe('createScenarioRun', () => {
  it('plays the continuation when answered, as the next attempt of the same run', async () => {
    const scenario = getScenario('waiting-choice-single');
    const onAction = vi.fn();
    const run = createScenarioRun(scenario, { onAction });
    expect(run.getState().status).toBe('WAITING');
    const seen: string[] = [];
    run.subscribe(() => seen.push(run.getState().phase));
    await run.respond({ kind: 'choice', selected: ['fr8341'] });
    expect(onAction).toHaveBeenCalledWith('respond', { kind: 'choice', selected: ['fr8341'] });
    expect(seen[0]).toBe('connecting');
    expect(run.getState().status).toBe('COMPLETED');
    expect(run.getState().attempt).toBe(2);
    expect(run.getState().output?.assistantText).toBe(scenario.continuation?.expected.assistantText);
  });

  it('refuses an answer without touching the state when told to', async () => {
    const run = createScenarioRun(getScenario('waiting-text'), { rejectAnswer: 'closed' });
    const before = run.getState();
    await expect(run.respond({ kind: 'text', text: 'hi' })).rejects.toThrow('closed');
    expect(run.getState()).toBe(before);
  });

  it('detaches a live run', () => {
    const run = createScenarioRun(getScenario('completed-text'), { upTo: 6 });
    run.detach();
    expect(run.getState().phase).toBe('detached');
  });

  it("plays the scenario's retry when retried, as the mock Kestrel does for the same input", () => {
    const scenario = getScenario('failed-retryable-then-completed');
    const run = createScenarioRun(scenario);
    expect(run.getState().status).toBe('FAILED');
    run.retry();
    expect(run.getState()).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
    expect(run.getState().output?.assistantText).toBe(scenario.retry?.expected.assistantText);
  });

  it('says what retry would do, as a controller does: nothing to restart with for a run resumed by id', () => {
    const onAction = vi.fn();
    const started = createScenarioRun(getScenario('failed-retryable'));
    expect(started.getRetryMode()).toBe('restart');
    const resumed = createScenarioRun(getScenario('failed-retryable'), { resumed: true, onAction });
    expect(resumed.getRetryMode()).toBeNull();
    const before = resumed.getState();
    resumed.retry();
    expect(onAction).toHaveBeenCalledWith('retry');
    expect(resumed.getState()).toBe(before);
    expect(createScenarioRun(getScenario('truncated'), { resumed: true }).getRetryMode()).toBe('resume');
    expect(createScenarioRun(getScenario('failed-no-text')).getRetryMode()).toBeNull();
  });
});
