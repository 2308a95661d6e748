import type { RunCompletedEvent } from '@kestrel/core';
import type { QueryClient } from '@tanstack/react-query';
import { keepNewerResult } from './keep-newer-result.js';
import { kestrelKeys } from './kestrel-keys.js';

/**
 * Puts a settled run's terminal event into the query cache under `kestrelKeys.result(runId)`, as if
 * `runResultQueryOptions` had fetched it: queries of that run see it without a request. An event older than the
 * cached one (an earlier attempt or seq) leaves the cache as it is.
 *
 * @example
 * <KestrelProvider client={client} defaults={{ onSettled: (event) => writeRunResult(queryClient, event) }} />
 */
export function writeRunResult(queryClient: QueryClient, event: RunCompletedEvent): void {
  queryClient.setQueryData<RunCompletedEvent | null>(kestrelKeys.result(event.runId), (cached) =>
    keepNewerResult(cached, event),
  );
}
