import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createScenarioRun, getScenario, invoiceSchema, type Invoice } from '@kestrel/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../axe-check.test-helper.js';
import { AnswerFirst, InvoiceFirst, WithBanner } from './recompositions.js';

const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[data-kestrel-part="${name}"]`);
// Vitest runs from the repository root; jsdom's import.meta.url is not a file URL.
const source = readFileSync(resolve('packages/react/src/components/docs-examples/recompositions.tsx'), 'utf8');
const docs = readFileSync(resolve('docs/components.md'), 'utf8');

function region(name: string): string {
  const match = new RegExp(`// #region ${name}\\n([\\s\\S]*?)// #endregion ${name}`).exec(source);
  if (match?.[1] === undefined) throw new Error(`no region ${name} in recompositions.tsx`);
  return match[1].trim();
}

describe('the recompositions in docs/components.md', () => {
  it.each(['reordered', 'custom-outcome', 'payload-first'])('shows %s exactly as the type-checked example', (name) => {
    expect(docs).toContain(region(name));
  });

  it('reordered: the answer comes first and the activity last, with the same parts', async () => {
    const { container } = render(<AnswerFirst run={createScenarioRun(getScenario('tool-error'))} />);
    const root = container.firstElementChild as HTMLElement;
    const order = [...root.querySelectorAll('[data-kestrel-part]')].map((element) =>
      element.getAttribute('data-kestrel-part'),
    );
    expect(order.indexOf('assistant-text')).toBeLessThan(order.indexOf('activity'));
    expect(part(root, 'status')?.className).toBe('sr-only');
    await expectNoAxeViolations(container);
  });

  it('custom outcome: the app banner replaces Run.Outcome and keeps the kit retry on its own button', async () => {
    const user = userEvent.setup();
    const run = createScenarioRun(getScenario('failed-retryable'));
    const retry = vi.spyOn(run, 'retry');
    const { container } = render(<WithBanner run={run} />);
    const banner = screen.getByRole('group', { name: 'Run failed' });
    expect(banner.textContent).toContain('The model provider is overloaded');
    expect(part(container, 'outcome')).toBeNull();
    await user.click(within(banner).getByRole('button', { name: 'Run it again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    await expectNoAxeViolations(container);
  });

  it('payload first: the app-rendered payload sits above the assistant text', async () => {
    const run = createScenarioRun<Invoice>(getScenario('completed-payload'), { payloadSchema: invoiceSchema });
    const { container } = render(<InvoiceFirst run={run} />);
    const payload = screen.getByRole('group', { name: 'Application content' });
    const text = part(container, 'assistant-text') as HTMLElement;
    expect(payload.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(payload.textContent).toContain('INV-2041');
    await expectNoAxeViolations(container);
  });
});
