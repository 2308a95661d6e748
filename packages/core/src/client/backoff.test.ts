import { describe, expect, it } from 'vitest';
import { backoffDelay, resolveReconnectPolicy } from './backoff.js';

describe('backoffDelay', () => {
  const policy = resolveReconnectPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, jitter: 0 });

  it('doubles from the base delay up to the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, policy))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
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

  it.each(['attempts', 'baseDelayMs', 'maxDelayMs', 'jitter'] as const)(
    'refuses %s: NaN, naming the option, instead of reconnecting forever',
    (key) => {
      expect(() => resolveReconnectPolicy({ [key]: Number.NaN })).toThrow(
        new RangeError(`reconnect.${key} must be a number, got NaN`),
      );
    },
  );

  it('keeps every delay within what setTimeout can wait', () => {
    const unbounded = resolveReconnectPolicy({ baseDelayMs: 1_000, maxDelayMs: Number.POSITIVE_INFINITY, jitter: 0 });
    expect(backoffDelay(60, unbounded)).toBe(2_147_483_647);
  });
});
