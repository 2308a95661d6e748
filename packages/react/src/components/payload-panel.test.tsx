import { createScenarioSource, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { PayloadPanel, resetPayloadWarnings } from './payload-panel.js';

afterEach(() => {
  vi.restoreAllMocks();
  resetPayloadWarnings();
});

describe('PayloadPanel', () => {
  it("renders only what the app's renderer returns, in a group labelled as application content", async () => {
    const source = createScenarioSource<Invoice>(getScenario('completed-payload'), { payloadSchema: invoiceSchema });
    const renderPayload = vi.fn((invoice: Invoice, context: { runId: string | null }) => (
      <p>
        {invoice.invoiceNumber} for {invoice.total} {invoice.currency} ({context.runId})
      </p>
    ));
    const { container } = render(<PayloadPanel run={source} renderPayload={renderPayload} />);
    const region = screen.getByRole('group', { name: 'Application content' });
    expect(region.getAttribute('data-authored')).toBe('app');
    expect(region.getAttribute('data-kestrel-part')).toBe('payload');
    expect(region.textContent).toBe('INV-2041 for 1260.5 EUR (run_completed_payload)');
    expect(renderPayload).toHaveBeenCalledWith(
      expect.objectContaining({ vendor: 'Northwind Traders' }),
      expect.objectContaining({ finishReason: 'completed' }),
    );
    // The kit never serializes the payload itself.
    expect(container.textContent).not.toContain('Northwind');
    await expectNoAxeViolations(container);
  });

  it('is no landmark: a conversation of runs with payloads has no repeated landmark (axe landmark-unique)', async () => {
    const renderPayload = (invoice: Invoice) => <p>{invoice.invoiceNumber}</p>;
    const panel = () => (
      <PayloadPanel
        run={createScenarioSource<Invoice>(getScenario('completed-payload'), { payloadSchema: invoiceSchema })}
        renderPayload={renderPayload}
      />
    );
    const { container } = render(
      <main>
        {panel()}
        {panel()}
      </main>,
    );
    expect(screen.getAllByRole('group', { name: 'Application content' })).toHaveLength(2);
    expect(screen.queryByRole('region')).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('keeps a role the app gives it: a lone view can make its payload a landmark', () => {
    render(
      <PayloadPanel
        role="region"
        run={createScenarioSource<Invoice>(getScenario('completed-payload'), { payloadSchema: invoiceSchema })}
        renderPayload={(invoice) => <p>{invoice.invoiceNumber}</p>}
      />,
    );
    expect(screen.getByRole('region', { name: 'Application content' }).textContent).toBe('INV-2041');
  });

  it('stays a group when a wrapper passes role={undefined}', () => {
    render(
      <PayloadPanel
        role={undefined}
        run={createScenarioSource<Invoice>(getScenario('completed-payload'), { payloadSchema: invoiceSchema })}
        renderPayload={(invoice) => <p>{invoice.invoiceNumber}</p>}
      />,
    );
    expect(screen.getByRole('group', { name: 'Application content' }).textContent).toBe('INV-2041');
  });

  it('shows an invalid payload as invalid, with its issues, and never calls the renderer', async () => {
    const renderPayload = vi.fn(() => <p>rendered</p>);
    const { container } = render(
      <PayloadPanel
        run={createScenarioSource(getScenario('completed-invalid-payload'), { payloadSchema: invoiceSchema })}
        renderPayload={renderPayload}
      />,
    );
    expect(screen.queryByRole('group', { name: 'Application content' })).toBeNull();
    const region = container.querySelector('[data-kestrel-part="payload"]') as HTMLElement;
    expect(region.getAttribute('data-payload')).toBe('invalid');
    expect(region.getAttribute('data-authored')).toBe('kit');
    expect(region.textContent).toContain("does not match this app's schema");
    expect(screen.getByText('currency')).toBeTruthy();
    expect(screen.getByText('total')).toBeTruthy();
    expect(renderPayload).not.toHaveBeenCalled();
    expect(region.textContent).not.toContain('EURO');
    await expectNoAxeViolations(container);
  });

  it('shows a visible notice and warns once when a payload exists but no renderer was given', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const source = createScenarioSource(getScenario('completed-payload'), { payloadSchema: invoiceSchema });
    const { container } = render(
      <>
        <PayloadPanel run={source} />
        <PayloadPanel run={source} />
      </>,
    );
    const notices = screen.getAllByText(/returned a structured result that this view does not display/);
    expect(notices).toHaveLength(2);
    expect(notices[0]?.closest('[data-kestrel-part="payload"]')?.getAttribute('data-payload')).toBe('unrendered');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('renderPayload');
    await expectNoAxeViolations(container);
  });

  it('renders nothing without a payload or before the run settles', () => {
    const { container } = render(
      <>
        <PayloadPanel run={createScenarioSource(getScenario('completed-text'))} renderPayload={() => 'x'} />
        <PayloadPanel
          run={createScenarioSource(getScenario('completed-payload'), { upTo: 10 })}
          renderPayload={() => 'x'}
        />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });
});
