'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { useStoreSelector } from './use-store-selector.js';

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
  return useStoreSelector(source, selector, isEqual);
}
