import { createScenarioRun, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createPortal } from 'react-dom';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DROPPED_PART_CHECK_MS } from './dropped-parts.js';
import { Run } from './run-parts.js';
import { RunView } from './run-view.js';
import { InvoiceTable } from './stories/support/invoice-table.js';
import { useInteraction } from './use-interaction.js';

/*
 * A recomposition of the parts that leaves out Run.Payload or Run.Prompt would drop a COMPLETED run's payload or a
 * WAITING run's question without a sound: in development, the root says so once the run settles, unless something
 * else on the page shows it.
 */

const settledRun = (scenario: string) =>
  createScenarioRun<Invoice>(getScenario(scenario), { payloadSchema: invoiceSchema });
const renderPayload = (invoice: Invoice) => <InvoiceTable invoice={invoice} />;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  vi.useFakeTimers();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  vi.useRealTimers();
});

/** The kit's warnings about a dropped part, once the check has had its time. */
const droppedWarnings = () => {
  act(() => vi.advanceTimersByTime(DROPPED_PART_CHECK_MS));
  return warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('renders no <Run.'));
};

describe('Run.Root in development', () => {
  it.each([
    ['completed-payload', 'Run.Payload', 'finalizedPayload'],
    ['completed-invalid-payload', 'Run.Payload', 'finalizedPayload'],
    ['waiting-approval', 'Run.Prompt', 'the question it waits on'],
  ])('%s without %s: warns once, naming the missing part', (scenario, part, what) => {
    const run = settledRun(scenario);
    const view = (extra: boolean) => (
      <StrictMode>
        <Run.Root run={run}>
          <Run.Status />
          <Run.Text />
          {extra ? <Run.Outcome /> : null}
        </Run.Root>
      </StrictMode>
    );
    const { rerender } = render(view(false));
    expect(droppedWarnings()).toHaveLength(1);
    rerender(view(true));
    const warnings = droppedWarnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`no <${part}>`);
    expect(warnings[0]).toContain(what);
  });

  it.each([['completed-payload'], ['waiting-approval'], ['completed-text'], ['failed-retryable']])(
    '%s: no warning with the parts there, nor from RunView',
    (scenario) => {
      const run = settledRun(scenario);
      render(
        <Run.Root run={run} renderPayload={renderPayload}>
          <Run.Text />
          <Run.Payload />
          <Run.Prompt />
        </Run.Root>,
      );
      render(<RunView run={run} renderPayload={renderPayload} />);
      expect(droppedWarnings()).toEqual([]);
    },
  );

  it.each([['completed-payload'], ['waiting-approval']])(
    '%s: a header view of the run beside a RunView that shows everything does not warn',
    (scenario) => {
      const run = settledRun(scenario);
      render(
        <>
          <Run.Root run={run}>
            <Run.Status />
            <Run.Cancel />
          </Run.Root>
          <RunView run={run} renderPayload={renderPayload} />
        </>,
      );
      expect(droppedWarnings()).toEqual([]);
    },
  );

  it('a Run.Payload in a portal counts', () => {
    const run = settledRun('completed-payload');
    render(
      <Run.Root run={run} renderPayload={renderPayload}>
        <Run.Text />
        {createPortal(<Run.Payload />, document.body)}
      </Run.Root>,
    );
    expect(droppedWarnings()).toEqual([]);
  });

  it('two compositions of one run, each without the part, each warn', () => {
    const run = settledRun('completed-payload');
    render(
      <>
        <Run.Root run={run}>
          <Run.Text />
        </Run.Root>
        <Run.Root run={run}>
          <Run.Status />
        </Run.Root>
      </>,
    );
    expect(droppedWarnings()).toHaveLength(2);
  });

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
    expect(droppedWarnings()).toEqual([]);
  });

  it("no warning when the app marks its own element as the payload's", () => {
    const run = settledRun('completed-payload');
    render(
      <Run.Root run={run}>
        <Run.Text />
        <div data-kestrel-part="payload">{run.getState().payload?.status}</div>
      </Run.Root>,
    );
    expect(droppedWarnings()).toEqual([]);
  });
});
