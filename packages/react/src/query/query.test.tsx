import type { RunCompletedEvent } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { QueryClient, QueryClientProvider, useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KestrelProvider } from '../kestrel-provider.js';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { createProbe, RunProbe } from '../test-support/run-probe.test-helper.js';
import { useRun } from '../use-run.js';
import { kestrelKeys } from './kestrel-keys.js';
import { runMutationOptions } from './run-mutation-options.js';
import { runResultQueryOptions } from './run-result-query-options.js';
import { useSyncRunToQueryCache } from './use-sync-run-to-query-cache.js';
import { writeRunResult } from './write-run-result.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const resultReads = (runId: string) => kestrel.sent('GET', new RegExp(`/v1/runs/${runId}/result$`)).length;

function Result({ runId }: { runId: string }) {
  const { data: event } = useSuspenseQuery(runResultQueryOptions(kestrel.client(), runId));
  return (
    <p data-testid="result">
      {event === null ? 'not settled' : `${event.output.status}: ${event.output.assistantText ?? ''}`}
    </p>
  );
}

describeModes('@kestrel/react/query', ({ options }) => {
  const withQuery = (queryClient: QueryClient, children: ReactNode) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );

  it('runResultQueryOptions reads a settled result with useSuspenseQuery', async () => {
    const scenario = getScenario('completed-text');
    const { runId } = await kestrel.client({ scenario: scenario.name }).start({ input: scenario.input }).result;
    render(
      withQuery(
        new QueryClient(),
        <Suspense fallback={<p>loading</p>}>
          <Result runId={runId} />
        </Suspense>,
      ),
      options,
    );
    expect(await screen.findByTestId('result')).toHaveProperty(
      'textContent',
      `COMPLETED: ${scenario.expected.assistantText}`,
    );
    expect(resultReads(runId)).toBeGreaterThanOrEqual(1);
  });

  it('gives null while the run has not settled', async () => {
    const handle = kestrel.client({ scenario: 'completed-text', delayMs: 20 }).start({ input: 'slow' });
    await waitFor(() => expect(handle.getState().runId).not.toBeNull());
    const runId = handle.getState().runId!;
    render(
      withQuery(
        new QueryClient(),
        <Suspense fallback={<p>loading</p>}>
          <Result runId={runId} />
        </Suspense>,
      ),
      options,
    );
    expect(await screen.findByTestId('result')).toHaveProperty('textContent', 'not settled');
    handle.detach();
  });

  it('useSyncRunToQueryCache writes each settled attempt so a query of it needs no request', async () => {
    const scenario = getScenario('waiting-approval');
    const queryClient = new QueryClient();
    const probe = createProbe();
    function Synced() {
      const run = useRun({ client: kestrel.client({ scenario: scenario.name }) });
      useSyncRunToQueryCache(run);
      useLayoutEffect(() => {
        probe.current = run;
      });
      return <p data-testid="phase">{run.state.status ?? run.state.phase}</p>;
    }
    render(withQuery(queryClient, <Synced />), options);
    act(() => probe.current!.start(scenario.input));
    await waitFor(() => expect(screen.getByTestId('phase').textContent).toBe('WAITING'));
    const runId = probe.current!.state.runId!;
    expect(queryClient.getQueryData<RunCompletedEvent>(kestrelKeys.result(runId))?.output.status).toBe('WAITING');
    await act(() => probe.current!.respond(scenario.continuation!.answer));
    await waitFor(() => expect(screen.getByTestId('phase').textContent).toBe('COMPLETED'));
    expect(queryClient.getQueryData<RunCompletedEvent>(kestrelKeys.result(runId))?.output.status).toBe('COMPLETED');
    // A history view mounted now reads the cache: no GET /result.
    render(
      withQuery(
        queryClient,
        <Suspense fallback={<p>loading</p>}>
          <Result runId={runId} />
        </Suspense>,
      ),
      options,
    );
    expect(await screen.findByTestId('result')).toHaveProperty(
      'textContent',
      `COMPLETED: ${scenario.continuation!.expected.assistantText}`,
    );
    expect(resultReads(runId)).toBe(0);
    expect(queryClient.getQueriesData({ queryKey: kestrelKeys.results() })).toHaveLength(1);
  });

  it('a provider-level onSettled writes every run under it to the cache', async () => {
    const queryClient = new QueryClient();
    const probe = createProbe();
    render(
      withQuery(
        queryClient,
        <KestrelProvider
          client={kestrel.client({ scenario: 'cancelled' })}
          defaults={{ onSettled: (event) => writeRunResult(queryClient, event) }}
        >
          <RunProbe probe={probe} />
        </KestrelProvider>,
      ),
      options,
    );
    act(() => probe.current!.start('Write a report'));
    await waitFor(() => expect(probe.current!.state.phase).toBe('settled'));
    const cached = queryClient.getQueryData<RunCompletedEvent>(kestrelKeys.result(probe.current!.state.runId!));
    expect(cached?.output.status).toBe('CANCELLED');
  });

  it.each(['completed-payload', 'failed-retryable', 'cancelled', 'waiting-form'])(
    'runMutationOptions runs %s through the JSON route; data is the terminal event, cached',
    async (name) => {
      const scenario = getScenario(name);
      const queryClient = new QueryClient();
      const before = kestrel.requests.length;
      const mutateRef: { current: ((input: string) => void) | null } = { current: null };
      function JsonRun() {
        const mutation = useMutation(runMutationOptions(kestrel.client({ scenario: name })));
        useLayoutEffect(() => {
          mutateRef.current = mutation.mutate;
        });
        return <p data-testid="json">{mutation.data === undefined ? mutation.status : mutation.data.output.status}</p>;
      }
      render(withQuery(queryClient, <JsonRun />), options);
      act(() => mutateRef.current!(scenario.input));
      await waitFor(() => expect(screen.getByTestId('json').textContent).toBe(scenario.expected.status));
      const sent = kestrel.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers.accept).toBe('application/json');
      const cached = queryClient.getQueriesData<RunCompletedEvent>({ queryKey: kestrelKeys.results() });
      expect(cached.map(([, event]) => event?.output.status)).toEqual([scenario.expected.status]);
    },
  );

  it('leaves useRun working without any QueryClient', async () => {
    const probe = createProbe();
    render(
      <KestrelProvider client={kestrel.client({ scenario: 'completed-text' })}>
        <RunProbe probe={probe} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current!.start('Hi'));
    await waitFor(() => expect(probe.current!.state.status).toBe('COMPLETED'));
  });
});
