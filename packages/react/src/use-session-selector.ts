'use client';
import type { SessionState } from '@kestrel/core';
import type { SessionBinding } from './types.js';
import { useStoreSelector } from './use-store-selector.js';

/**
 * Subscribes to one slice of a session. The component re-renders only when `isEqual` says the slice changed, so
 * a list of entry keys does not re-render while a run streams.
 *
 * @example
 * const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((key, i) => key === b[i]);
 * const keys = useSessionSelector(session, (state) => state.entries.map((entry) => entry.key), sameKeys);
 */
export function useSessionSelector<P, T>(
  session: Pick<SessionBinding<P>, 'getState' | 'getServerState' | 'subscribe'>,
  selector: (state: SessionState<P>) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  return useStoreSelector(session, selector, isEqual, session.getServerState);
}
