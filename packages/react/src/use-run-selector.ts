'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { useCallback, useRef, useSyncExternalStore } from 'react';

interface Cache<P, T> {
  readonly state: RunState<P>;
  readonly selector: (state: RunState<P>) => T;
  readonly value: T;
}

/**
 * Subscribes to one slice of a run. The component re-renders only when `isEqual` says the slice changed, so a
 * status badge does not re-render on every text delta.
 *
 * @example
 * const phase = useRunSelector(run, (state) => state.phase);
 */
export function useRunSelector<P, T>(
  source: RunSource<P>,
  selector: (state: RunState<P>) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const cache = useRef<Cache<P, T> | null>(null);
  const getSnapshot = useCallback(() => {
    const state = source.getState();
    const previous = cache.current;
    if (previous !== null && previous.state === state && previous.selector === selector) return previous.value;
    const next = selector(state);
    const value = previous !== null && isEqual(previous.value, next) ? previous.value : next;
    cache.current = { state, selector, value };
    return value;
  }, [source, selector, isEqual]);
  return useSyncExternalStore(source.subscribe, getSnapshot, getSnapshot);
}
