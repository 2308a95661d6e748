import { isFollowing, type RunSource } from '@kestrel/core';
import type { QueryClient } from '@tanstack/react-query';

/** The runs `useSyncRunToQueryCache` keeps in step with each QueryClient. */
const syncedRuns = new WeakMap<QueryClient, Set<RunSource<unknown>>>();

/** Registers a run whose settled attempts are written to `queryClient`; returns the unregister function. */
export function registerSyncedRun(queryClient: QueryClient, run: RunSource<unknown>): () => void {
  let runs = syncedRuns.get(queryClient);
  if (runs === undefined) {
    runs = new Set();
    syncedRuns.set(queryClient, runs);
  }
  runs.add(run);
  const registered = runs;
  return () => {
    registered.delete(run);
  };
}

/**
 * Whether this app follows `runId` live through a run synced to `queryClient`, and at which attempt: `undefined`
 * when it does not, `null` while the attempt is not known yet (before `run.started`).
 */
export function followedAttempt(queryClient: QueryClient, runId: string): number | null | undefined {
  for (const run of syncedRuns.get(queryClient) ?? []) {
    const state = run.getState();
    if (state.runId === runId && isFollowing(state.phase)) return state.attempt;
  }
  return undefined;
}
