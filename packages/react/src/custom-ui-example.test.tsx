import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getScenario } from '@kestrel/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { KestrelProvider } from './kestrel-provider.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { useRun } from './use-run.js';

/*
 * The README's "Build your own UI with useRun" example, kept here verbatim (a test checks it) so it is type-checked
 * and run.
 */

// --- README example start
const invoiceSchema = z.object({
  invoiceNumber: z.string(),
  vendor: z.string(),
  currency: z.string(),
  total: z.number(),
});

export function InvoiceExtractor() {
  const run = useRun({
    payloadSchema: invoiceSchema,
    responseFormat: { type: 'json_schema', name: 'invoice', schema: z.toJSONSchema(invoiceSchema) },
  });
  const { state } = run;

  // 1. Where is the run? Only `settled` carries an outcome.
  switch (state.phase) {
    case 'idle':
      return <button onClick={() => run.start('Extract the invoice in invoice-2041.pdf')}>Extract</button>;
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
      return (
        <section aria-busy="true">
          <p>{state.draftText}</p> {/* motion: never shown as the result */}
          {/* cancel() rejects when the request fails, and the run goes on: handle it (Run.Cancel shows an alert). */}
          <button onClick={() => run.cancel().catch(console.error)}>Cancel</button>
        </section>
      );
    case 'detached':
      return <p>Stopped watching. The run goes on on the server.</p>;
    case 'error':
      return (
        <p role="alert">
          No outcome: {state.error.message}
          {/* Only when retry() would act: a protocol error or a 404 would just repeat itself. */}
          {run.getRetryMode() !== null && <button onClick={run.retry}>Retry</button>}
        </p>
      );
    case 'settled':
      break;
  }

  // 2. What happened? Branch on the status. Only `settled` is left, so TypeScript knows the output is set, and
  //    that a COMPLETED run has its payload (`{ status: 'absent' }` when none was asked for).
  switch (state.status) {
    case 'COMPLETED':
      return (
        <article>
          <p>{state.output.assistantText}</p>
          {state.payload.status === 'valid' && (
            <dl>
              <dt>Invoice</dt>
              <dd>{state.payload.value.invoiceNumber}</dd>
              <dt>Total</dt>
              <dd>
                {state.payload.value.total} {state.payload.value.currency}
              </dd>
            </dl>
          )}
          {state.payload.status === 'invalid' && <p role="alert">The invoice data did not match the schema.</p>}
        </article>
      );
    case 'FAILED':
      return (
        <p role="alert">
          Failed: {state.output.error.message}
          {/* Retryable, and this binding holds the input to start again (not a run only resumed by id). */}
          {run.getRetryMode() !== null && <button onClick={run.retry}>Try again</button>}
        </p>
      );
    case 'CANCELLED':
      return <p>Cancelled: {state.output.cancellation.reason}</p>;
    case 'WAITING':
      return (
        <fieldset>
          <legend>{state.output.interaction.prompt}</legend>
          {state.output.interaction.kind === 'approval' && (
            <button onClick={() => run.respond({ kind: 'approval', approved: true }).catch(console.error)}>
              Approve
            </button>
          )}
        </fieldset>
      );
    default:
      return null;
  }
}
// --- README example end

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

describeModes('the README custom UI', ({ options }) => {
  const show = async (scenario: string) => {
    render(
      <KestrelProvider client={kestrel.client({ scenario })}>
        <InvoiceExtractor />
      </KestrelProvider>,
      options,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Extract' }));
  };

  it('shows the answer and the typed payload separately', async () => {
    await show('completed-payload');
    const article = await screen.findByRole('article', {}, { timeout: 5_000 });
    expect(within(article).getByText(getScenario('completed-payload').expected.assistantText!)).toBeTruthy();
    expect(within(article).getByText('INV-2041')).toBeTruthy();
    expect(within(article).getByText('1260.5 EUR')).toBeTruthy();
  });

  it('is the example the README shows, word for word', () => {
    const source = readFileSync(join(import.meta.dirname, 'custom-ui-example.test.tsx'), 'utf8');
    const start = '// --- README example start\n';
    const example = source.slice(source.indexOf(start) + start.length, source.indexOf('// --- README example end'));
    expect(example).toContain('export function InvoiceExtractor');
    expect(readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8')).toContain(example);
  });

  it('offers no retry for a protocol error, which sending again would only repeat', async () => {
    await show('malformed-event');
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toContain('No outcome:');
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('shows a retryable failure with a retry button', async () => {
    await show('failed-retryable');
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toContain('The model provider is overloaded');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('asks the WAITING question and follows the answer to the outcome', async () => {
    await show('waiting-approval');
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }, { timeout: 5_000 }));
    expect(
      await screen.findByText(
        getScenario('waiting-approval').continuation!.expected.assistantText!,
        {},
        { timeout: 5_000 },
      ),
    ).toBeTruthy();
  });
});
