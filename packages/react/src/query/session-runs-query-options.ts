import { SessionListingError, listSessionRuns, type RunClient, type RunListPage } from '@kestrel/core';
import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import { kestrelKeys } from './kestrel-keys.js';

/** What the cache holds under `kestrelKeys.session(sessionId)`: listing pages, newest first, by their `before` cursor. */
export type SessionRunsData = InfiniteData<RunListPage, string | null>;

type SessionKey = ReturnType<typeof kestrelKeys.session>;

/**
 * Infinite query options for a session's runs (`GET /v1/sessions/{sessionId}/runs`), for `useInfiniteQuery` and
 * friends: the first page is the newest, `fetchNextPage` reads older ones (`nextCursor`), and each page lists its
 * runs oldest first. An unknown session or a server without the listing (a `SessionListingError`) is not retried.
 *
 * @example
 * const { data, fetchNextPage, hasNextPage } = useInfiniteQuery(sessionRunsQueryOptions(client, sessionId));
 * const runs = data?.pages.toReversed().flatMap((page) => page.runs) ?? []; // oldest first
 */
export function sessionRunsQueryOptions(
  client: RunClient,
  sessionId: string,
  options: { readonly pageSize?: number } = {},
) {
  return infiniteQueryOptions<RunListPage, Error, SessionRunsData, SessionKey, string | null>({
    queryKey: kestrelKeys.session(sessionId),
    queryFn: ({ pageParam, signal }) =>
      listSessionRuns(client, { sessionId, before: pageParam ?? undefined, limit: options.pageSize, signal }),
    initialPageParam: null,
    getNextPageParam: (page) => page.nextCursor,
    retry: (failures, error) => !(error instanceof SessionListingError) && failures < 3,
  });
}
