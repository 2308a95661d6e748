import type { RunClient, RunCompletedEvent } from '@kestrel/core';
import { queryOptions, type QueryFunctionContext } from '@tanstack/react-query';
import { followedAttempt } from './followed-runs.js';
import { keepNewerResult, type CachedRunResult } from './keep-newer-result.js';
import { kestrelKeys } from './kestrel-keys.js';

type ResultKey = ReturnType<typeof kestrelKeys.result>;

async function readResult(
  client: RunClient,
  runId: string,
  context: QueryFunctionContext<ResultKey>,
): Promise<RunCompletedEvent | null> {
  const { client: queryClient, queryKey, signal } = context;
  const before = queryClient.getQueryData<RunCompletedEvent | null>(queryKey);
  const attempt = followedAttempt(queryClient, runId);
  if (attempt !== undefined) {
    // The app follows this run live (useSyncRunToQueryCache): the outcome arrives with it, and `/result` would
    // only answer 409. A cached result of an earlier attempt than the live one no longer holds.
    return before === undefined || before === null || (attempt !== null && before.attempt < attempt) ? null : before;
  }
  const fetched = await client.fetchResult(runId, { signal });
  const after = queryClient.getQueryData<RunCompletedEvent | null>(queryKey);
  // Written while the request was out (the live run settling): a "not settled" read before it says nothing newer.
  if (fetched === null && after !== before) return after ?? null;
  return keepNewerResult(after, fetched);
}

/**
 * Query options for a run's settled result (`GET /v1/runs/{runId}/result`), for `useQuery`,
 * `useSuspenseQuery`, `prefetchQuery` and friends. The data is the `run.completed` event, or `null` while the run
 * has not settled. A COMPLETED, FAILED or CANCELLED result never changes, so it never goes stale; a WAITING one
 * (or `null`) does, because answering continues the run.
 *
 * Whatever writes the cache (this query, `writeRunResult`, the app's `setQueryData`), a settled outcome is never
 * replaced by `null` or by an earlier attempt or seq, even when a request that began before the run settled
 * answers after it. While `useSyncRunToQueryCache` follows the run live, the query does not ask the server.
 *
 * @example
 * const { data: event } = useSuspenseQuery(runResultQueryOptions(client, runId));
 * if (event === null) return <p>Still running</p>;
 * const { output } = event;
 * if (output.status !== 'COMPLETED') return <p>{output.status}</p>;
 * // Two separate outputs: the text, and the structured payload when one was asked for.
 * const payload = readPayload(output, invoiceSchema);
 * return <><p>{output.assistantText}</p>{payload.status === 'valid' && <InvoiceTable invoice={payload.value} />}
 *   {payload.status === 'invalid' && <p role="alert">The structured result does not match the schema.</p>}</>;
 */
export function runResultQueryOptions(client: RunClient, runId: string) {
  return queryOptions<RunCompletedEvent | null, Error, RunCompletedEvent | null, ResultKey>({
    queryKey: kestrelKeys.result(runId),
    queryFn: (context) => readResult(client, runId, context),
    // TanStack types this hook with `unknown`; every value under this key is a result or `null`.
    structuralSharing: (cached, incoming) =>
      keepNewerResult(cached as CachedRunResult, incoming as RunCompletedEvent | null),
    staleTime: (query) => {
      const status = query.state.data?.output.status;
      return status === undefined || status === 'WAITING' ? 0 : Infinity;
    },
  });
}
