import type { ReconnectPolicy } from './types.js';

export type ResolvedReconnectPolicy = Required<ReconnectPolicy>;

export const defaultReconnectPolicy: ResolvedReconnectPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 10_000, jitter: 0.5 };

export function resolveReconnectPolicy(policy: ReconnectPolicy = {}): ResolvedReconnectPolicy {
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? defaultReconnectPolicy.jitter));
  return {
    attempts: Math.max(0, policy.attempts ?? defaultReconnectPolicy.attempts),
    baseDelayMs: Math.max(0, policy.baseDelayMs ?? defaultReconnectPolicy.baseDelayMs),
    maxDelayMs: Math.max(0, policy.maxDelayMs ?? defaultReconnectPolicy.maxDelayMs),
    jitter,
  };
}

/**
 * The wait before reconnect number `attempt` (1-based): `baseDelayMs * 2^(attempt-1)`, capped at `maxDelayMs`, of
 * which the `jitter` share is randomized, so that many clients dropped together do not return together.
 *
 * @example
 * backoffDelay(3, { attempts: 5, baseDelayMs: 500, maxDelayMs: 10_000, jitter: 0 }); // 2000
 */
export function backoffDelay(attempt: number, policy: ResolvedReconnectPolicy, random: () => number = Math.random): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped * (1 - policy.jitter) + capped * policy.jitter * random());
}
