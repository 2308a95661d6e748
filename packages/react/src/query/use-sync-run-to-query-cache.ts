'use client';
import type { RunSource } from '@kestrel/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { writeRunResult } from './write-run-result.js';

/**
 * Writes each attempt of `run` that settles into the query cache (`kestrelKeys.result(runId)`), so lists and
 * detail views built on `runResultQueryOptions` show it without refetching. Renders nothing and causes no
 * re-render: it listens outside React's render.
 *
 * @example
 * const run = useRun();
 * useSyncRunToQueryCache(run);
 */
export function useSyncRunToQueryCache(run: RunSource<unknown>, queryClient?: QueryClient): void {
  const contextClient = useQueryClient(queryClient);
  const { getState, subscribe } = run;
  useEffect(() => {
    let written: unknown = null;
    const write = () => {
      const state = getState();
      if (state.phase !== 'settled' || state.result === null || state.result === written) return;
      written = state.result;
      writeRunResult(contextClient, state.result);
    };
    write();
    return subscribe(write);
  }, [contextClient, getState, subscribe]);
}
