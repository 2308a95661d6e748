import type { RunClient, RunCompletedEvent, RunHandle } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { createProbe } from '../test-support/run-probe.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { kestrelKeys } from './kestrel-keys.js';
import { runResultQueryOptions } from './run-result-query-options.js';
import { useSyncRunToQueryCache } from './use-sync-run-to-query-cache.js';
import { writeRunResult } from './write-run-result.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const scenario = getScenario('waiting-approval');
const answer = scenario.continuation!.answer;

/**
 * A client whose `GET /result` reaches the mock at once but whose answer is held until `release()`: the request
 * reads the run as it was when it arrived, and its answer lands after whatever the test does meanwhile.
 */
function heldResultReader() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const statuses: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.endsWith('/result')) return response;
    statuses.push(response.status);
    await released;
    return response;
  };
  const client: RunClient = kestrel.client({ fetch });
  return { client, statuses, release };
}

/** Starts the scenario paced, so each attempt is still streaming when the test acts on it. */
function startPaced(): RunHandle {
  return kestrel.client({ scenario: scenario.name, delayMs: 25 }).start({ input: scenario.input });
}

async function untilAttempt(handle: RunHandle, attempt: number): Promise<string> {
  await waitFor(() => expect(handle.getState()).toMatchObject({ phase: 'streaming', attempt }));
  return handle.getState().runId!;
}

const cachedStatus = (queryClient: QueryClient, runId: string) =>
  queryClient.getQueryData<RunCompletedEvent | null>(kestrelKeys.result(runId))?.output.status ?? null;

describe('the result cache keeps the newest reading of a run', () => {
  it('a /result read that began while attempt 2 ran and answers "not settled" after the live COMPLETED leaves COMPLETED', async () => {
    const queryClient = new QueryClient();
    const handle = startPaced();
    writeRunResult(queryClient, await handle.result);
    const next = await handle.respond(answer);
    const runId = await untilAttempt(next, 2);

    const reader = heldResultReader();
    const reading = queryClient.fetchQuery(runResultQueryOptions(reader.client, runId));
    await waitFor(() => expect(reader.statuses).toEqual([409])); // the server said "not settled" while attempt 2 ran
    writeRunResult(queryClient, await next.result); // the live run settles first
    reader.release();

    expect((await reading)?.output.status).toBe('COMPLETED');
    expect(cachedStatus(queryClient, runId)).toBe('COMPLETED');
  });

  it('a /result read of the WAITING attempt that answers after the live COMPLETED leaves COMPLETED', async () => {
    const queryClient = new QueryClient();
    const handle = startPaced();
    const waiting = await handle.result;
    writeRunResult(queryClient, waiting);

    const reader = heldResultReader();
    const reading = queryClient.fetchQuery(runResultQueryOptions(reader.client, waiting.runId));
    await waitFor(() => expect(reader.statuses).toEqual([200])); // it read attempt 1: WAITING
    const next = await handle.respond(answer);
    writeRunResult(queryClient, await next.result);
    reader.release();

    expect((await reading)?.output).toMatchObject({
      status: 'COMPLETED',
      assistantText: scenario.continuation!.expected.assistantText,
    });
    expect(cachedStatus(queryClient, waiting.runId)).toBe('COMPLETED');
  });

  it('a "not settled" read that began before the WAITING was written leaves WAITING', async () => {
    const queryClient = new QueryClient();
    const handle = startPaced();
    const runId = await untilAttempt(handle, 1);

    const reader = heldResultReader();
    const reading = queryClient.fetchQuery(runResultQueryOptions(reader.client, runId));
    await waitFor(() => expect(reader.statuses).toEqual([409]));
    writeRunResult(queryClient, await handle.result);
    reader.release();

    expect((await reading)?.output.status).toBe('WAITING');
    expect(cachedStatus(queryClient, runId)).toBe('WAITING');
  });

  it('a WAITING result gives way to "not settled" once someone else answered it', async () => {
    const queryClient = new QueryClient();
    const handle = startPaced();
    writeRunResult(queryClient, await handle.result);
    const next = await handle.respond(answer); // answered in another tab: nothing in this app follows it
    const runId = await untilAttempt(next, 2);

    expect(await queryClient.fetchQuery(runResultQueryOptions(kestrel.client(), runId))).toBeNull();
    expect(queryClient.getQueryData(kestrelKeys.result(runId))).toBeNull();
    next.detach();
  });

  it('writeRunResult never replaces a later attempt with an earlier one', async () => {
    const queryClient = new QueryClient();
    const handle = startPaced();
    const waiting = await handle.result;
    const completed = await (await handle.respond(answer)).result;
    writeRunResult(queryClient, completed);
    writeRunResult(queryClient, waiting); // e.g. a provider's onSettled for a handle that settled earlier
    expect(cachedStatus(queryClient, waiting.runId)).toBe('COMPLETED');
  });

  it('an app\'s own setQueryData cannot put "not settled" over a settled result its query holds', async () => {
    const queryClient = new QueryClient();
    const completed = await kestrel.client({ scenario: 'completed-text' }).start({ input: 'Hi' }).result;
    expect(
      (await queryClient.fetchQuery(runResultQueryOptions(kestrel.client(), completed.runId)))?.output.status,
    ).toBe('COMPLETED');
    queryClient.setQueryData(kestrelKeys.result(completed.runId), null);
    expect(cachedStatus(queryClient, completed.runId)).toBe('COMPLETED');
  });
});

describeModes('a run the app follows live', ({ options }) => {
  const resultReads = (runId: string) => kestrel.sent('GET', new RegExp(`/v1/runs/${runId}/result$`)).length;

  it('is not asked for through GET /result while it streams; its query shows the outcome when it settles', async () => {
    const queryClient = new QueryClient();
    const probe = createProbe();
    function Live() {
      const run = useRun({ client: kestrel.client({ scenario: 'completed-text', delayMs: 25 }) });
      useSyncRunToQueryCache(run);
      useLayoutEffect(() => {
        probe.current = run;
      });
      return null;
    }
    function History({ runId }: { runId: string }) {
      const { data: event, isPending } = useQuery(runResultQueryOptions(kestrel.client(), runId));
      return <p data-testid="history">{isPending ? 'loading' : (event?.output.status ?? 'running')}</p>;
    }
    const { rerender } = render(
      <QueryClientProvider client={queryClient}>
        <Live />
      </QueryClientProvider>,
      options,
    );
    act(() => probe.current!.start('Write a haiku'));
    await waitFor(() => expect(probe.current!.state.phase).toBe('streaming'));
    const runId = probe.current!.state.runId!;
    rerender(
      <QueryClientProvider client={queryClient}>
        <Live />
        <History runId={runId} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('running')).toBeDefined();
    await act(() => queryClient.refetchQueries({ queryKey: kestrelKeys.result(runId) })); // e.g. window focus
    await waitFor(() => expect(screen.getByTestId('history').textContent).toBe('COMPLETED'));
    expect(resultReads(runId)).toBe(0);
  });
});
