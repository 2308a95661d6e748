import { createSessionController, SessionListingError, type RunCompletedEvent } from '@kestrel/core';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { kestrelKeys } from './kestrel-keys.js';
import { sessionRunsQueryOptions, type SessionRunsData } from './session-runs-query-options.js';
import { writeSessionPage } from './write-session-page.js';

const servers: LoopbackKestrel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function kestrel(options: Parameters<typeof startLoopbackKestrel>[0]) {
  const server = await startLoopbackKestrel(options);
  servers.push(server);
  return server;
}
const numbers = (data: SessionRunsData | undefined) =>
  data?.pages.map((page) => page.runs.map((run) => Number(run.input.match(/#(\d+)/)?.[1])));

describe('session listing in TanStack Query', () => {
  it('sessionRunsQueryOptions reads the newest page first, then older pages by cursor, under kestrelKeys.session(id)', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_q', runs: 5 }] });
    const queryClient = new QueryClient();
    const data = await queryClient.fetchInfiniteQuery({
      ...sessionRunsQueryOptions(server.client(), 'ses_q', { pageSize: 2 }),
      pages: 3,
    });
    expect(numbers(data)).toEqual([[4, 5], [2, 3], [1]]);
    expect(data.pageParams).toEqual([null, 'before-3', 'before-1']);
    expect(queryClient.getQueryData(kestrelKeys.session('ses_q'))).toBe(data);
  });

  it('does not retry an unknown session or a server without the listing', async () => {
    const server = await kestrel({ listing: false });
    const queryClient = new QueryClient();
    await expect(queryClient.fetchInfiniteQuery(sessionRunsQueryOptions(server.client(), 'ses_x'))).rejects.toThrow(
      SessionListingError,
    );
    expect(server.sent('GET', /\/runs/)).toHaveLength(1);
  });

  it('writeSessionPage keeps the cache in step with what a session controller reads, results included', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_w', runs: 5 }] });
    const queryClient = new QueryClient();
    const session = createSessionController({
      client: server.client(),
      sessionId: 'ses_w',
      pageSize: 2,
      onPage: (page, before) => writeSessionPage(queryClient, 'ses_w', page, before),
    });
    session.start();
    await vi.waitFor(() => expect(session.getState().history).toBe('more'));
    await session.loadOlder();
    const cached = queryClient.getQueryData<SessionRunsData>(kestrelKeys.session('ses_w'));
    expect(numbers(cached)).toEqual([
      [4, 5],
      [2, 3],
    ]);
    const first = session.getState().entries[0];
    const result = queryClient.getQueryData<RunCompletedEvent>(kestrelKeys.result(first?.runId ?? ''));
    expect(result?.output.status).toBe('COMPLETED');
    // The query reads on from where the controller stopped, with one request.
    const requestsBefore = server.sent('GET', /\/runs\?/).length;
    const observerData = await queryClient.fetchInfiniteQuery({
      ...sessionRunsQueryOptions(server.client(), 'ses_w', { pageSize: 2 }),
      staleTime: Infinity,
    });
    expect(numbers(observerData)).toEqual([
      [4, 5],
      [2, 3],
    ]);
    expect(server.sent('GET', /\/runs\?/).length).toBe(requestsBefore);
    session.dispose();
  });

  it('writeSessionPage leaves out an older page that does not continue the cached ones', () => {
    const queryClient = new QueryClient();
    const page = (cursor: string | null) => ({ runs: [], nextCursor: cursor });
    writeSessionPage(queryClient, 'ses_1', page('c2'), null);
    writeSessionPage(queryClient, 'ses_1', page(null), 'elsewhere');
    expect(queryClient.getQueryData<SessionRunsData>(kestrelKeys.session('ses_1'))?.pageParams).toEqual([null]);
    writeSessionPage(queryClient, 'ses_1', page(null), 'c2');
    expect(queryClient.getQueryData<SessionRunsData>(kestrelKeys.session('ses_1'))?.pageParams).toEqual([null, 'c2']);
  });
});
