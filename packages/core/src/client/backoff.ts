import type { ReconnectPolicy } from './types.js';

export type ResolvedReconnectPolicy = Required<ReconnectPolicy>;

export const defaultReconnectPolicy: ResolvedReconnectPolicy = {
  attempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  jitter: 0.5,
};

/*
 * A NaN would slip through every clamp (Math.max(0, NaN) is NaN) and `attempt > NaN` is never true: the client would
 * reconnect forever. Refused where the option is given, naming it.
 */
function option(policy: ReconnectPolicy, key: keyof ReconnectPolicy): number {
  const value = policy[key] ?? defaultReconnectPolicy[key];
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new RangeError(`reconnect.${key} must be a number, got ${String(value)}`);
  }
  return value;
}

/**
 * Fills in the defaults and clamps each option to its range; `attempts: Infinity` reconnects without limit.
 *
 * @throws {RangeError} naming the option when one is not a number (NaN included).
 */
export function resolveReconnectPolicy(policy: ReconnectPolicy = {}): ResolvedReconnectPolicy {
  return {
    attempts: Math.max(0, option(policy, 'attempts')),
    baseDelayMs: Math.max(0, option(policy, 'baseDelayMs')),
    maxDelayMs: Math.max(0, option(policy, 'maxDelayMs')),
    jitter: Math.min(1, Math.max(0, option(policy, 'jitter'))),
  };
}

// setTimeout treats a delay above 2^31 - 1 ms as 1 ms: an unbounded maxDelayMs would reconnect at once.
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * The wait before reconnect number `attempt` (1-based): `baseDelayMs * 2^(attempt-1)`, capped at `maxDelayMs`, of
 * which the `jitter` share is randomized, so that many clients dropped together do not return together.
 *
 * @example
 * backoffDelay(3, { attempts: 5, baseDelayMs: 500, maxDelayMs: 10_000, jitter: 0 }); // 2000
 */
export function backoffDelay(
  attempt: number,
  policy: ResolvedReconnectPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxDelayMs, exponential, MAX_TIMER_DELAY_MS);
  return Math.round(capped * (1 - policy.jitter) + capped * policy.jitter * random());
}
