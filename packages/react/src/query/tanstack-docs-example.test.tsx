import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getScenario } from '@kestrel/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KestrelProvider } from '../kestrel-provider.js';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
// --- docs/react.md TanStack example start
import { readPayload, type RunCompletedEvent } from '@kestrel/core';
import { useKestrelClient } from '@kestrel/react';
import { runMutationOptions, runResultQueryOptions } from '@kestrel/react/query';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { z } from 'zod';

const invoiceSchema = z.object({ invoiceNumber: z.string(), total: z.number() });

/** A settled result: the status first, then the text and the payload, side by side, as the two outputs they are. */
function Outcome({ event }: { event: RunCompletedEvent }) {
  const { output } = event;
  switch (output.status) {
    case 'COMPLETED': {
      const payload = readPayload(output, invoiceSchema);
      return (
        <article>
          <p>{output.assistantText}</p>
          {payload.status === 'valid' && (
            <p>
              Invoice {payload.value.invoiceNumber}, total {payload.value.total}
            </p>
          )}
          {payload.status === 'invalid' && <p role="alert">The structured result does not match the invoice schema.</p>}
        </article>
      );
    }
    case 'FAILED':
      return <p role="alert">Failed: {output.error.message}</p>;
    case 'CANCELLED':
      return <p>Cancelled: {output.cancellation.reason}</p>;
    case 'WAITING':
      return <p>Waiting for an answer: {output.interaction.prompt}</p>;
    default:
      return output satisfies never;
  }
}

/** A run's settled result, read with `GET /v1/runs/{runId}/result` (or from the cache). */
export function PastRun({ runId }: { runId: string }) {
  const client = useKestrelClient();
  const { data: event } = useSuspenseQuery(runResultQueryOptions(client, runId));
  return event === null ? <p>Still running</p> : <Outcome event={event} />;
}

/** One request through the JSON route, no stream. */
export function ExtractOnce() {
  const client = useKestrelClient();
  const extract = useMutation(runMutationOptions(client));
  const responseFormat = { type: 'json_schema', name: 'invoice', schema: z.toJSONSchema(invoiceSchema) } as const;
  return (
    <>
      <button onClick={() => extract.mutate({ input: 'Extract the invoice in invoice-2041.pdf', responseFormat })}>
        Extract
      </button>
      {extract.error !== null && <p role="alert">No outcome: {extract.error.message}</p>}
      {extract.data !== undefined && <Outcome event={extract.data} />}
    </>
  );
}
// --- docs/react.md TanStack example end

/*
 * The TanStack Query example of docs/react.md, kept here verbatim (the test checks that it is) so it is
 * type-checked and run against the mock Kestrel.
 */

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const scenario = getScenario('completed-payload');
const shown = `Invoice INV-2041, total 1260.5`;

describeModes('the docs/react.md TanStack example', ({ options }) => {
  it('is the example the guide shows, word for word', () => {
    const source = readFileSync(join(import.meta.dirname, 'tanstack-docs-example.test.tsx'), 'utf8');
    const start = '// --- docs/react.md TanStack example start\n';
    const example = source.slice(
      source.indexOf(start) + start.length,
      source.indexOf('// --- docs/react.md TanStack example end'),
    );
    expect(example).toContain('function PastRun');
    expect(readFileSync(join(import.meta.dirname, '../../../../docs/react.md'), 'utf8')).toContain(
      `\`\`\`tsx\n'use client';\n${example}\`\`\``,
    ); // the docs block starts as a client file does
  });

  it('PastRun shows the text and the payload of a settled run, side by side', async () => {
    const { runId } = await kestrel.client({ scenario: scenario.name }).start({ input: scenario.input }).result;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <KestrelProvider client={kestrel.client()}>
          <Suspense fallback={<p>Loading</p>}>
            <PastRun runId={runId} />
          </Suspense>
        </KestrelProvider>
      </QueryClientProvider>,
      options,
    );
    expect(await screen.findByText(scenario.expected.assistantText!)).toBeDefined();
    expect(screen.getByText(shown)).toBeDefined();
  });

  it('ExtractOnce shows the text and the payload the JSON route returned', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <KestrelProvider client={kestrel.client({ scenario: scenario.name })}>
          <ExtractOnce />
        </KestrelProvider>
      </QueryClientProvider>,
      options,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Extract' }));
    expect(await screen.findByText(scenario.expected.assistantText!)).toBeDefined();
    expect(screen.getByText(shown)).toBeDefined();
  });
});
