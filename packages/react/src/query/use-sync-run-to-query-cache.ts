'use client';
import type { RunSource } from '@kestrel/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { registerSyncedRun } from './followed-runs.js';
import { writeRunResult } from './write-run-result.js';

/**
 * Writes each attempt of `run` that settles into the query cache (`kestrelKeys.result(runId)`), so lists and
 * detail views built on `runResultQueryOptions` show it without refetching. While the run streams, those queries
 * do not ask the server either: its outcome arrives with the run. Renders nothing and causes no re-render: it
 * listens outside React's render.
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
    const unregister = registerSyncedRun(contextClient, { getState, subscribe });
    const unsubscribe = subscribe(write);
    return () => {
      unsubscribe();
      unregister();
    };
  }, [contextClient, getState, subscribe]);
}
