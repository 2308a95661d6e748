'use client';
import { useCallback, useRef, useSyncExternalStore } from 'react';

/** Anything with a snapshot and a subscription: a run, a session. */
export interface SnapshotSource<S> {
  readonly getState: () => S;
  readonly subscribe: (listener: () => void) => () => void;
}

interface Cache<S, T> {
  readonly state: S;
  readonly selector: (state: S) => T;
  readonly value: T;
}

/**
 * One `useSyncExternalStore` over a slice of a source: the slice is recomputed only when the snapshot or the
 * selector changes, and kept (same identity) while `isEqual` says it did not change, so the caller does not
 * re-render. `getServerState` defaults to the source's `getState`.
 */
export function useStoreSelector<S, T>(
  source: SnapshotSource<S>,
  selector: (state: S) => T,
  isEqual: (a: T, b: T) => boolean,
  getServerState: () => S = source.getState,
): T {
  const cache = useRef<Cache<S, T> | null>(null);
  const select = useCallback(
    (state: S) => {
      const previous = cache.current;
      if (previous !== null && previous.state === state && previous.selector === selector) return previous.value;
      const next = selector(state);
      const value = previous !== null && isEqual(previous.value, next) ? previous.value : next;
      cache.current = { state, selector, value };
      return value;
    },
    [selector, isEqual],
  );
  const getSnapshot = useCallback(() => select(source.getState()), [source, select]);
  const getServerSnapshot = useCallback(() => select(getServerState()), [select, getServerState]);
  return useSyncExternalStore(source.subscribe, getSnapshot, getServerSnapshot);
}
