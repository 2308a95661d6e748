import { runResultQueryOptions } from '@kestrel/react/query';
import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { serverRunClient } from '../../../server/kestrel-backend';
import { RunResult } from './run-result';

// A run's result is read per request: a WAITING or unsettled run changes.
export const dynamic = 'force-dynamic';

/**
 * A server component: it reads the run's settled result from Kestrel on the server (with the app's credentials,
 * no proxy hop), puts it in a request-scoped QueryClient and hands the cache to the browser, where `RunResult`'s
 * `useQuery` starts from it instead of asking again. A result that could not be read is not sent: the browser
 * asks through the proxy and shows what went wrong.
 */
export default async function RunPage({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery(runResultQueryOptions(serverRunClient(), runId));
  return (
    <>
      <h1>Run {runId}</h1>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <RunResult runId={runId} />
      </HydrationBoundary>
    </>
  );
}
