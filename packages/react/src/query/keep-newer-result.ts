import type { RunCompletedEvent } from '@kestrel/core';
import { replaceEqualDeep } from '@tanstack/react-query';

/** What the cache holds under `kestrelKeys.result(runId)`: the terminal event, `null` while not settled, nothing yet. */
export type CachedRunResult = RunCompletedEvent | null | undefined;

/** `event` settled a later attempt than `than`, or came later in the same attempt. */
function isLater(event: RunCompletedEvent, than: RunCompletedEvent): boolean {
  return event.attempt === than.attempt ? event.seq > than.seq : event.attempt > than.attempt;
}

/**
 * Which reading of a run's result the cache keeps when a new one arrives, whoever writes it (a `/result` fetch,
 * the live run, the JSON route, the app's own `setQueryData`):
 *
 * - a COMPLETED, FAILED or CANCELLED result is final, so "not settled" (`null`) never replaces it;
 * - an event never gives way to one of an earlier attempt, or an earlier seq of the same attempt;
 * - `null` does replace a WAITING result: answering starts a new attempt, which has not settled yet. (A `null`
 *   that was read before the WAITING was written is caught earlier, by the query function.)
 *
 * An equal reading keeps the cached object, so nothing re-renders for it.
 */
export function keepNewerResult(cached: CachedRunResult, incoming: RunCompletedEvent | null): RunCompletedEvent | null {
  if (cached === undefined || cached === null) return incoming;
  if (incoming === null) return cached.output.status === 'WAITING' ? null : cached;
  return isLater(incoming, cached) ? incoming : isLater(cached, incoming) ? cached : replaceEqualDeep(cached, incoming);
}
