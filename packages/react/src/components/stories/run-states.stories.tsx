import { createScenarioRun, getScenario } from '@kestrel/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { RunView } from '../run-view.js';
import { renderMarkdown } from '../../markdown/markdown-text.js';
import { WideInvoice } from './support/invoice-table.js';
import { ScenarioView } from './support/scenario-view.js';

/** States between the scenarios' ends: mid-stream, reconnecting, detached, and the payload cases side by side. */
const meta = {
  title: 'Atlas/Run states',
  component: ScenarioView,
  args: { focusOnWait: false },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ScenarioView>;

export default meta;
type Story = StoryObj<typeof meta>;

const phaseOf = (canvasElement: HTMLElement) =>
  canvasElement.querySelector('[data-kestrel-run]')?.getAttribute('data-phase');

/**
 * Where the text sits against the root's content box: [start offset, width gap]. Zero for both, draft or final,
 * means settling never moves the text nor changes where its lines wrap (no layout of a long answer again).
 * Null without layout (jsdom).
 */
function textPlacement(canvasElement: HTMLElement): [number, number] | null {
  const root = canvasElement.querySelector<HTMLElement>('[data-kestrel-run]')!;
  const text = root.querySelector('[data-kestrel-text]')!.getBoundingClientRect();
  const box = root.getBoundingClientRect();
  if (box.width === 0) return null;
  const style = getComputedStyle(root);
  const px = (value: string) => Number.parseFloat(value);
  const start = box.left + px(style.borderLeftWidth) + px(style.paddingLeft);
  const width =
    box.width - px(style.borderLeftWidth) - px(style.borderRightWidth) - px(style.paddingLeft) - px(style.paddingRight);
  return [Math.round(text.left - start), Math.round(width - text.width)];
}

/** Before a run starts: the theme shows nothing (no empty frame), while the status live region waits in the DOM. */
export const Idle: Story = {
  args: { scenario: 'completed-text', freeze: { upTo: 0 } },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-kestrel-run]');
    await expect(root?.getAttribute('data-phase')).toBe('idle');
    // Rendered though empty: a live region hidden with display: none could miss its first announcement.
    const status = root?.querySelector<HTMLElement>('[role="status"]');
    await expect(status && getComputedStyle(status).display).not.toBe('none');
    const style = getComputedStyle(root as HTMLElement);
    await expect([style.borderTopStyle, Number.parseFloat(style.paddingTop)]).toEqual(['none', 0]);
    await expect(root?.getBoundingClientRect().height).toBe(0);
  },
};

export const Connecting: Story = {
  args: { scenario: 'completed-text', freeze: { upTo: 1 } },
  play: async ({ canvasElement }) => {
    await expect(phaseOf(canvasElement)).toBe('connecting');
  },
};

export const Streaming: Story = {
  args: { scenario: 'completed-payload', freeze: { until: (state) => state.draftText.split(' ').length > 8 } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(phaseOf(canvasElement)).toBe('streaming');
    // The draft is in a region that is not live; the (empty, hidden) live region waits to announce the answer.
    const draft = canvas.getByRole('group', { name: 'Assistant response, in progress' });
    await expect(draft.getAttribute('aria-busy')).toBe('true');
    await expect(draft.closest('[aria-live]')).toBeNull();
    await expect(draft.previousElementSibling?.getAttribute('aria-live')).toBe('polite');
    await expect(draft.previousElementSibling?.textContent).toBe('');
    await expect(draft.textContent).toContain('in progress');
    // The draft's dashed rule hangs before the text: the text has the place and width the final answer has.
    await expect(textPlacement(canvasElement) ?? [0, 0]).toEqual([0, 0]);
  },
};

export const StreamingWithActivityOpen: Story = {
  args: { scenario: 'tool-error', activityOpen: true, freeze: { until: (state) => state.draftText.length > 30 } },
};

export const Reconnecting: Story = {
  args: { scenario: 'dropped-mid-stream', freeze: { until: (state) => state.phase === 'reconnecting' } },
  play: async ({ canvasElement }) => {
    await expect(phaseOf(canvasElement)).toBe('reconnecting');
    await expect(canvasElement.querySelector('[data-kestrel-part="connection"]')?.textContent).toContain(
      'Reconnecting',
    );
  },
};

export const Detached: Story = {
  args: { scenario: 'completed-text', freeze: { upTo: 12, then: [{ type: 'client/detached' }] } },
  play: async ({ canvasElement }) => {
    await expect(phaseOf(canvasElement)).toBe('detached');
    await expect(within(canvasElement).getByRole('button', { name: 'Follow again' })).toBeTruthy();
  },
};

export const PayloadAbsent: Story = {
  args: { scenario: 'completed-text' },
  play: async ({ canvasElement }) => {
    await expect(textPlacement(canvasElement) ?? [0, 0]).toEqual([0, 0]);
  },
};

export const PayloadValid: Story = {
  args: { scenario: 'completed-payload' },
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('group', { name: 'Application content' });
    await expect(region.getAttribute('data-authored')).toBe('app');
    await expect(within(region).getByRole('table')).toBeTruthy();
  },
};

export const PayloadInvalid: Story = {
  args: { scenario: 'completed-invalid-payload' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-kestrel-part="payload"]')?.getAttribute('data-payload')).toBe(
      'invalid',
    );
  },
};

export const PayloadUnrendered: Story = {
  args: { scenario: 'completed-payload', renderPayload: false },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/structured result that this view does not display/)).toBeTruthy();
  },
};

export const MarkdownText: Story = {
  args: { scenario: 'completed-payload', renderText: renderMarkdown },
};

/** The German label set (`@kestrel/react/locales/de`), every label translated. */
export const Translated: Story = {
  args: { scenario: 'waiting-approval', locale: 'de' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Genehmigen' })).toBeInTheDocument();
    await expect(canvas.getByRole('status')).toHaveTextContent('Wartet auf Ihre Antwort');
  },
};

/**
 * Right to left (`dir="rtl"`): theme.css uses logical properties only, so the rules that mark the draft, the
 * payload and the notes move to the right edge, and the activity's arrow points the other way.
 */
export const RightToLeft: Story = {
  args: { scenario: 'completed-payload', dir: 'rtl', activityOpen: true, toolRenderers: true },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-kestrel-run]');
    await expect(root?.closest('[dir]')?.getAttribute('dir')).toBe('rtl');
    await expect(root?.querySelector('[data-kestrel-part="payload"]')).toBeInTheDocument();
  },
};

/**
 * An app table wider than a phone (in the app's own focusable scroll region): the view keeps its own border at
 * 358 px instead of growing to the table (its one column is `minmax(0, 1fr)`), and the table scrolls.
 */
export const WidePayloadOnAPhone: Story = {
  args: { scenario: 'completed-payload', payloadRenderer: (invoice) => <WideInvoice invoice={invoice} /> },
  decorators: [(Story) => <div style={{ maxInlineSize: 358 }}>{Story()}</div>],
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-kestrel-run]');
    const scroller = within(canvasElement).getByTestId('wide-invoice');
    // Only a browser lays out (jsdom measures 0): there the card must not grow past 358 px, the table scrolls.
    if (root === null || root.clientWidth === 0) return;
    await expect(root.getBoundingClientRect().width).toBeLessThanOrEqual(358);
    await expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
    await expect(scroller.scrollWidth).toBeGreaterThan(scroller.clientWidth);
  },
};

/** A retryable FAILED run resumed by id after a reload: still marked retryable, but no Try again that would send nothing. */
export const FailedRetryableResumed: Story = {
  args: { scenario: 'failed-retryable', freeze: { resumed: true } },
  play: async ({ canvasElement }) => {
    const outcome = canvasElement.querySelector<HTMLElement>('[data-kestrel-part="outcome"]');
    await expect(outcome?.getAttribute('data-retryable')).toBe('true');
    await expect(within(outcome as HTMLElement).queryByRole('button')).toBeNull();
  },
};

/**
 * Try again, pressed from the keyboard: the button goes while the run starts over, and focus stays in the run view
 * (tabindex -1, no extra tab stop) instead of falling to the top of the page.
 */
export const TryAgainKeepsFocus: Story = {
  args: { scenario: 'failed-retryable-then-completed' },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-kestrel-run]')!;
    within(canvasElement).getByRole('button', { name: 'Try again' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(root).toHaveAttribute('data-status', 'COMPLETED'));
    await expect(canvasElement.ownerDocument.activeElement).toBe(root);
    await expect(root.tabIndex).toBe(-1);
    // Tab goes on into the view, which is then no longer focusable from script: never a tab stop of its own.
    await userEvent.tab();
    await expect(root.contains(canvasElement.ownerDocument.activeElement)).toBe(true);
    await expect(root.hasAttribute('tabindex')).toBe(false);
  },
};

/** Where the draft's top edge is, in viewport pixels, inside `host`. */
const draftTop = (host: HTMLElement) => host.querySelector('[data-kestrel-part="draft"]')!.getBoundingClientRect().top;

/**
 * Puts the server HTML of a streaming view on the page, notes where its draft is (`data-draft-top`), then hydrates
 * it, as an app that renders on the server does.
 */
function ServerHtmlThenHydrated() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current!;
    const run = createScenarioRun(getScenario('completed-text'), { until: (state) => state.draftText.length > 20 });
    const view = <RunView run={run} focusOnWait={false} />;
    element.innerHTML = renderToString(view);
    element.dataset.draftTop = String(draftTop(element));
    const root = hydrateRoot(element, view);
    // Not during the commit that removes the story: React refuses to unmount a root while it renders.
    return () => void setTimeout(() => root.unmount());
  }, []);
  return <div ref={host} data-testid="server-html" />;
}

/**
 * A streaming view rendered on the server, then hydrated: nothing moves. The hidden region that will announce the
 * answer carries no style attribute in server HTML (a strict style CSP would drop it); theme.css hides it from the
 * first paint, so it never takes a row and a gap of the root's grid until hydration.
 */
export const ServerRenderedThenHydrated: Story = {
  args: { scenario: 'completed-text' },
  render: () => <ServerHtmlThenHydrated />,
  play: async ({ canvasElement }) => {
    const host = within(canvasElement).getByTestId('server-html');
    const region = host.querySelector<HTMLElement>('[data-kestrel-part="announcement"]')!;
    // Hydrated once the region's own effect has run: it sets the hiding styles through the CSSOM.
    await waitFor(() => expect(region.style.position).toBe('absolute'));
    await new Promise((painted) => requestAnimationFrame(painted));
    await expect(host.querySelector('[data-kestrel-part="announcement"]')).toBe(region);
    await expect(draftTop(host)).toBe(Number(host.dataset.draftTop));
  },
};
