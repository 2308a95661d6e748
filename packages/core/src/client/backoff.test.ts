import { describe, expect, it } from 'vitest';
import { backoffDelay, resolveReconnectPolicy } from './backoff.js';

describe('backoffDelay', () => {
  const policy = resolveReconnectPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, jitter: 0 });

  it('doubles from the base delay up to the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, policy))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('randomizes only the jitter share of each delay', () => {
    const jittered = resolveReconnectPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, jitter: 0.5 });
    expect(backoffDelay(3, jittered, () => 0)).toBe(200);
    expect(backoffDelay(3, jittered, () => 0.999_999)).toBe(400);
    expect(backoffDelay(3, jittered, () => 0.5)).toBe(300);
  });

  it('fills in the documented defaults and clamps jitter to 0..1', () => {
    expect(resolveReconnectPolicy()).toEqual({ attempts: 5, baseDelayMs: 500, maxDelayMs: 10_000, jitter: 0.5 });
    expect(resolveReconnectPolicy({ jitter: 3 }).jitter).toBe(1);
  });
});
