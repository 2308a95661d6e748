import { getScenario, scenarioActions } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { reduceRun } from '../run/reduce-run.js';
import { initialRunState, type RunState } from '../run/run-state.js';
import { getRetryMode } from './retry-mode.js';

const played = (name: string): RunState => scenarioActions(getScenario(name).steps).reduce(reduceRun, initialRunState);

describe('getRetryMode', () => {
  it.each([
    ['truncated', 'resume'],
    ['failed-retryable', 'restart'],
    ['failed-no-text', null],
    ['malformed-event', null],
    ['completed-text', null],
    ['cancelled', null],
    ['waiting-approval', null],
  ] as const)('%s → %s', (name, mode) => {
    expect(getRetryMode(played(name))).toBe(mode);
  });

  it('starts again when the start request itself failed, before any run id', () => {
    const state = [
      { type: 'client/start-requested', mode: 'start' } as const,
      { type: 'client/http-error', status: 503, code: 'unavailable', message: 'Service unavailable' } as const,
    ].reduce(reduceRun, initialRunState);
    expect(getRetryMode(state)).toBe('restart');
  });

  it('offers nothing while a run is live, detached or idle', () => {
    expect(getRetryMode(initialRunState)).toBeNull();
    const streaming = reduceRun(initialRunState, { type: 'client/start-requested', mode: 'start' });
    expect(getRetryMode(streaming)).toBeNull();
    expect(getRetryMode(reduceRun(streaming, { type: 'client/detached' }))).toBeNull();
  });
});
