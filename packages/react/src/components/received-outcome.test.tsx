import type { RunAction } from '@kestrel/core';
import { createScenarioRun, createScenarioSource, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { ReceivedOutcome } from './received-outcome.js';
import { RunView } from './run-view.js';

/** A scenario played to its outcome, then one more event: the protocol error of "event after run.completed". */
function eventAfter(name: string) {
  const scenario = getScenario(name);
  const settled = createScenarioSource(scenario).getState();
  const late: RunAction = {
    type: 'text.delta',
    runId: scenario.runId,
    sessionId: scenario.sessionId,
    seq: settled.lastSeq + 1,
    delta: ' late',
  };
  return { payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined, then: [late] };
}

describe('ReceivedOutcome', () => {
  it.each([
    ['failed-retryable', 'FAILED', 'Received before the error: the run failed', 'provider_overloaded'],
    [
      'cancelled',
      'CANCELLED',
      'Received before the error: the run was cancelled',
      'You cancelled the runReason: Stopped by the user',
    ],
    [
      'waiting-approval',
      'WAITING',
      'Received before the error: the run was waiting for an answer',
      'It asked: Send the Q3 report',
    ],
  ])(
    'shows a %s outcome a protocol error followed, marked as received before it',
    async (name, status, heading, detail) => {
      const source = createScenarioSource<Invoice>(getScenario(name), eventAfter(name));
      expect(source.getState().phase).toBe('error');
      const { container } = render(<ReceivedOutcome run={source} />);
      const region = screen.getByRole('region', { name: heading });
      expect(region.getAttribute('data-status')).toBe(status);
      expect(region.textContent).toContain(detail);
      await expectNoAxeViolations(container);
    },
  );

  it('keeps the payload it received visible, through the app renderer', async () => {
    const run = createScenarioRun<Invoice>(getScenario('completed-payload'), eventAfter('completed-payload'));
    const { container } = render(
      <RunView run={run} renderPayload={(invoice) => <p>Invoice {invoice.invoiceNumber}</p>} />,
    );
    const received = screen.getByRole('region', { name: 'Received before the error: the run finished' });
    const payload = screen.getByRole('group', { name: 'Application content' });
    expect(received.contains(payload)).toBe(true);
    expect(payload.textContent).toBe('Invoice INV-2041');
    expect(screen.getByRole('alert').getAttribute('data-error-kind')).toBe('protocol');
    await expectNoAxeViolations(container);
  });

  it('renders nothing for a settled run or an error with no outcome', () => {
    const { container } = render(
      <>
        <ReceivedOutcome run={createScenarioSource(getScenario('completed-text'))} />
        <ReceivedOutcome run={createScenarioSource(getScenario('truncated'))} />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });
});
