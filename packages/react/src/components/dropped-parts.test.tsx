import { createScenarioRun, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { resetDroppedPartWarnings } from './dropped-parts.js';
import { Run } from './run-parts.js';
import { RunView } from './run-view.js';
import { useInteraction } from './use-interaction.js';
import { InvoiceTable } from './stories/support/invoice-table.js';

/*
 * A recomposition of the parts that leaves out Run.Payload or Run.Prompt would drop a COMPLETED run's payload or a
 * WAITING run's question without a sound: in development, the root says so once the run settles.
 */

const settledRun = (scenario: string) =>
  createScenarioRun<Invoice>(getScenario(scenario), { payloadSchema: invoiceSchema });

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  resetDroppedPartWarnings();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

const kestrelWarnings = () =>
  warn.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith('[kestrel]'));

describe('Run.Root in development', () => {
  it.each([
    ['completed-payload', 'Run.Payload', 'finalizedPayload'],
    ['completed-invalid-payload', 'Run.Payload', 'finalizedPayload'],
    ['waiting-approval', 'Run.Prompt', 'the question it waits on'],
  ])('%s without %s: warns once, naming the missing part', (scenario, part, what) => {
    const run = settledRun(scenario);
    const view = (children: ReactNode) => <Run.Root run={run}>{children}</Run.Root>;
    const { rerender } = render(
      view(
        <>
          <Run.Status />
          <Run.Text />
        </>,
      ),
    );
    rerender(
      view(
        <>
          <Run.Status />
          <Run.Text />
          <Run.Outcome />
        </>,
      ),
    );
    expect(kestrelWarnings()).toHaveLength(1);
    expect(kestrelWarnings()[0]).toContain(`no <${part}>`);
    expect(kestrelWarnings()[0]).toContain(what);
  });

  it.each([['completed-payload'], ['waiting-approval'], ['completed-text'], ['failed-retryable']])(
    '%s: no warning with the part there, nor from RunView',
    (scenario) => {
      const run = settledRun(scenario);
      render(
        <Run.Root run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />}>
          <Run.Text />
          <Run.Payload />
          <Run.Prompt />
        </Run.Root>,
      );
      render(<RunView run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />);
      expect(kestrelWarnings()).toEqual([]);
    },
  );

  it('no warning for a question the app shows with useInteraction', () => {
    const run = settledRun('waiting-approval');
    function OwnQuestion() {
      const interaction = useInteraction();
      return <p>{interaction?.interaction.prompt}</p>;
    }
    render(
      <Run.Root run={run}>
        <Run.Text />
        <OwnQuestion />
      </Run.Root>,
    );
    expect(kestrelWarnings()).toEqual([]);
  });

  it("no warning when the app marks its own element as the payload's", () => {
    const run = settledRun('completed-payload');
    render(
      <Run.Root run={run}>
        <Run.Text />
        <div data-kestrel-part="payload">{run.getState().payload?.status}</div>
      </Run.Root>,
    );
    expect(kestrelWarnings()).toEqual([]);
  });
});
