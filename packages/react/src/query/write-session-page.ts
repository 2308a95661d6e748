import type { RunListPage } from '@kestrel/core';
import type { QueryClient } from '@tanstack/react-query';
import { kestrelKeys } from './kestrel-keys.js';
import type { SessionRunsData } from './session-runs-query-options.js';
import { writeRunResult } from './write-run-result.js';

/**
 * Writes a listing page a session controller read into the cache, as `sessionRunsQueryOptions` would have fetched
 * it: the newest page (`before` null) starts the pages over; an older page is appended when it continues the last
 * one (its `before` is that page's `nextCursor`), else left out. Each settled run's result also goes to
 * `kestrelKeys.result(runId)` (`writeRunResult`). Pass it as the controller's `onPage`.
 *
 * @example
 * createSessionController({ client, sessionId, onPage: (page, before) => writeSessionPage(queryClient, sessionId, page, before) });
 */
export function writeSessionPage(
  queryClient: QueryClient,
  sessionId: string,
  page: RunListPage,
  before: string | null,
): void {
  queryClient.setQueryData<SessionRunsData>(kestrelKeys.session(sessionId), (cached) => {
    if (before === null) return { pages: [page], pageParams: [null] };
    const last = cached?.pages.at(-1);
    if (cached === undefined || last?.nextCursor !== before) return cached;
    return { pages: [...cached.pages, page], pageParams: [...cached.pageParams, before] };
  });
  for (const run of page.runs) if (run.result !== undefined) writeRunResult(queryClient, run.result);
}
