import { createRunClient } from '@kestrel/core';
import { KestrelProvider } from '@kestrel/react';
import { errorResponse } from '@kestrel/server';
import { createNodeListener, listenOnLoopback, type LoopbackServer } from '@kestrel/server/node';
import { getScenario, scenarioEvents } from '@kestrel/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberRun } from '../run-history.js';
import { HistoryPage } from './history-page.js';

const terminal = scenarioEvents(getScenario('completed-text').steps).find((event) => event.type === 'run.completed')!;

/** A Kestrel whose `/result` answers per run id: settled, live, malformed, failing. */
const results: Record<string, () => Response> = {
  run_settled: () => Response.json({ ...terminal, runId: 'run_settled' }),
  run_live: () => errorResponse(409, 'run_not_settled', 'The run is still streaming'),
  run_malformed: () =>
    Response.json({ ...terminal, runId: 'run_malformed', output: { status: 'COMPLETED', assistantText: '' } }),
  run_failing: () => errorResponse(503, 'unavailable', 'Kestrel is restarting'),
};

let kestrel: LoopbackServer;
beforeAll(async () => {
  kestrel = await listenOnLoopback(
    createNodeListener((request) => {
      const runId = /\/v1\/runs\/([^/]+)\/result$/.exec(new URL(request.url).pathname)?.[1] ?? '';
      return results[runId]?.() ?? errorResponse(404, 'not_found', 'No such route');
    }),
  );
});
afterAll(() => kestrel.close());

function renderHistory() {
  for (const runId of Object.keys(results)) {
    rememberRun({ runId, title: runId, page: '/', startedAt: '2026-01-01T12:00:00.000Z' });
  }
  // No retries: a failed read is shown at once, as it is after the demo's retries.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <KestrelProvider client={createRunClient({ baseUrl: kestrel.url })}>
        <HistoryPage />
      </KestrelProvider>
    </QueryClientProvider>,
  );
}

const row = (runId: string) => screen.getByRole('row', { name: new RegExp(runId) });
const statusCell = (runId: string) => within(row(runId)).getAllByRole('cell').at(-1)!.textContent;

describe('the history page', () => {
  it('labels each run by what its result query found: an outcome, running, or the kind of error', async () => {
    renderHistory();
    await screen.findByRole('table');
    await expect.poll(() => screen.getAllByRole('row').filter((tr) => tr.dataset.status === 'loading')).toHaveLength(0);

    expect(statusCell('run_settled')).toBe('COMPLETED');
    expect(statusCell('run_live')).toBe('running');
    expect(row('run_malformed').dataset).toMatchObject({ status: 'error', error: 'protocol' });
    expect(statusCell('run_malformed')).toMatch(/^Protocol error: .*\(seq \d+\) at output\.assistantText/);
    expect(row('run_failing').dataset).toMatchObject({ status: 'error', error: 'http' });
    expect(statusCell('run_failing')).toBe(
      'Server error (GET /v1/runs/run_failing/result: HTTP 503 unavailable: Kestrel is restarting)',
    );
    expect(screen.queryByText(/not found/i)).toBeNull();
  });
});
