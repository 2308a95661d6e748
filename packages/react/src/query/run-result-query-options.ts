import type { RunClient, RunCompletedEvent } from '@kestrel/core';
import { queryOptions } from '@tanstack/react-query';
import { kestrelKeys } from './kestrel-keys.js';

/**
 * Query options for a run's settled result (`GET /v1/runs/{runId}/result`), for `useQuery`,
 * `useSuspenseQuery`, `prefetchQuery` and friends. The data is the `run.completed` event, or `null` while the run
 * has not settled. A COMPLETED, FAILED or CANCELLED result never changes, so it never goes stale; a WAITING one
 * (or `null`) does, because answering continues the run.
 *
 * @example
 * const { data: event } = useSuspenseQuery(runResultQueryOptions(client, runId));
 * if (event?.output.status === 'COMPLETED') return <p>{event.output.assistantText}</p>;
 */
export function runResultQueryOptions(client: RunClient, runId: string) {
  return queryOptions<RunCompletedEvent | null>({
    queryKey: kestrelKeys.result(runId),
    queryFn: ({ signal }) => client.fetchResult(runId, { signal }),
    staleTime: (query) => {
      const status = query.state.data?.output.status;
      return status === undefined || status === 'WAITING' ? 0 : Infinity;
    },
  });
}
