import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { FixtureEntry } from './support/fixture-session.js';
import { SessionStory } from './support/session-story.js';

/** The conversation view, one story per state: from an empty session to a thread of 1,000 runs. */
const meta = {
  title: 'Session/SessionView',
  component: SessionStory,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof SessionStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const history: readonly FixtureEntry[] = [
  { input: 'What is on the Q3 invoice?', scenario: 'completed-payload' },
  {
    input: 'Can you file it?',
    scenario: 'completed-text',
    answers: [
      {
        interactionId: 'i-approve',
        attempt: 1,
        answer: { kind: 'approval', approved: true, comment: 'Go' },
        // Answered on this page: the thread shows what the run said and asked before the answer.
        question: {
          text: 'The invoice is ready to file with the Q3 batch.',
          interaction: {
            id: 'i-approve',
            kind: 'approval',
            prompt: 'File invoice INV-2041 now?',
            action: 'file_invoice',
          },
        },
      },
    ],
  },
];

const thread = (canvasElement: HTMLElement) => within(canvasElement).getByRole('log', { name: 'Conversation' });
const entryStates = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll('[data-kestrel-part="entry"]')].map((entry) => entry.getAttribute('data-state'));

/** A new conversation: nothing yet, nothing older to load, the composer ready. */
export const Empty: Story = {
  args: { sessionId: null, history: 'complete' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('No messages yet. Ask something to begin.')).toBeTruthy();
    await expect(within(canvasElement).queryByText('Start of the conversation')).toBeNull();
    await expect(within(canvasElement).queryByRole('button', { name: 'Load older messages' })).toBeNull();
  },
};

/** The first page of history on its way (after a reload): the log is busy. */
export const HistoryLoading: Story = {
  args: { history: 'loading' },
  play: async ({ canvasElement }) => {
    await expect(thread(canvasElement).getAttribute('aria-busy')).toBe('true');
    await expect(within(canvasElement).getByText('Loading older messages…')).toBeTruthy();
  },
};

/** A server without the listing: only the runs started here, and a note that older ones are not available. */
export const HistoryUnavailable: Story = {
  args: { history: 'unavailable', entries: history.slice(0, 1) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Older messages are not available from this server.')).toBeTruthy();
  },
};

/** A session id the server does not know (an old bookmark, an expired session): said, and the next message starts anew. */
export const SessionNotFound: Story = {
  args: { history: 'not-found' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      canvas.getByText('This conversation was not found: it may have expired. Your next message starts a new one.'),
    ).toBeTruthy();
    await expect(canvas.queryByRole('button', { name: 'Load older messages' })).toBeNull();
  },
};

/** Older runs exist: the button at the top (it also loads by itself when scrolled into view). */
export const MoreHistory: Story = {
  args: { history: 'more', entries: history, olderPages: [[{ input: 'Hello', scenario: 'completed-text' }]] },
  play: async ({ canvasElement }) => {
    // With theme.css (Storybook in Chromium; the stories' jsdom run has no styles): the root paints its own
    // background, as a run's card does, so its text in the theme's colours never sits on the page's.
    const style = getComputedStyle(canvasElement.querySelector('[data-kestrel-session]')!);
    if (style.display === 'flex') await expect(style.backgroundColor).not.toBe('rgba(0, 0, 0, 0)');
  },
};

/**
 * A keyboard user tabs from the end of a long thread to "Load older messages": focusing it scrolls it into view, which
 * must not load a page by itself (each Tab would load another). Enter loads one; focus stays on the button.
 */
export const LoadOlderByKeyboard: Story = {
  args: {
    history: 'more',
    entries: [...history, ...history, ...history],
    olderPages: [
      [{ input: 'Hello', scenario: 'completed-text' }],
      [{ input: 'First of all', scenario: 'completed-text' }],
    ],
    onAction: fn(),
  },
  play: async ({ canvasElement, args }) => {
    const log = thread(canvasElement);
    const loads = () => (args.onAction as ReturnType<typeof fn>).mock.calls.filter(([name]) => name === 'loadOlder');
    log.focus();
    await userEvent.tab();
    const button = within(canvasElement).getByRole('button', { name: 'Load older messages' });
    await expect(canvasElement.ownerDocument.activeElement).toBe(button);
    // Long enough for an IntersectionObserver callback (Chromium) to have run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(loads()).toHaveLength(0);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(entryStates(canvasElement)).toHaveLength(7));
    await expect(canvasElement.ownerDocument.activeElement).toBe(button);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(loads()).toHaveLength(1);
  },
};

/** A message typed while a run streams waits, visibly, with a way to withdraw it. */
export const QueuedMessage: Story = {
  args: {
    entries: [
      ...history,
      { input: 'Summarise the contract', scenario: 'completed-text', freeze: { upTo: 8 } },
      { input: 'And list the parties', scenario: 'completed-text', status: 'queued' },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(entryStates(canvasElement).at(-1)).toBe('queued');
    await expect(within(canvasElement).getByRole('button', { name: 'Withdraw' })).toBeTruthy();
  },
};

/** The newest run streams at the bottom: Stop in the composer; a message sent now would queue. */
export const LiveRunAtTheBottom: Story = {
  args: {
    entries: [
      ...history,
      {
        input: 'Summarise the contract',
        scenario: 'completed-text',
        freeze: { until: (s) => s.draftText.length > 40 },
      },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(entryStates(canvasElement).at(-1)).toBe('live');
    await expect(within(canvasElement).getByRole('button', { name: 'Stop' })).toBeTruthy();
    const composer = canvasElement.querySelector('[data-kestrel-part="composer"]');
    await expect(composer?.getAttribute('data-state')).toBe('queueing');
  },
};

/** A run waits for an answer in the middle of the thread (a later message is queued behind it). */
export const WaitingInTheMiddle: Story = {
  args: {
    entries: [
      ...history,
      { input: 'Send the report to finance', scenario: 'waiting-approval' },
      { input: 'Then archive it', scenario: 'completed-text', status: 'queued' },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled', 'waiting', 'queued']);
    await expect(within(canvasElement).getByRole('button', { name: 'Approve' })).toBeTruthy();
  },
};

/** A message that did not get through: why, in the person's terms (not the client's message), and Send again. */
export const FailedToSend: Story = {
  args: { entries: [...history, { input: 'Are you there?', scenario: 'completed-text', status: 'failed-to-send' }] },
  play: async ({ canvasElement }) => {
    const last = within([...canvasElement.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')].at(-1)!);
    await expect(last.getByText('Not sent: the server had a problem (HTTP 500).')).toBeTruthy();
    await expect(last.getByRole('button', { name: 'Send again' })).toBeTruthy();
  },
};

/**
 * The question was answered in another tab first: the run went on with that answer (read from the listing), and
 * the answer given here stays on screen as not sent, with why, instead of vanishing with the question.
 */
export const AnsweredElsewhere: Story = {
  args: {
    entries: [
      history[0]!,
      {
        input: 'Can you file it?',
        scenario: 'completed-text',
        answers: [{ interactionId: 'i-approve', attempt: 1, answer: { kind: 'approval', approved: true } }],
        answerNotTaken: { ...history[1]!.answers![0]!, reason: 'answered-elsewhere' },
      },
    ],
  },
  play: async ({ canvasElement }) => {
    const notTaken = canvasElement.querySelector<HTMLElement>('[data-kestrel-part="answer"][data-state="not-taken"]')!;
    await expect(within(notTaken).getByText('Your answer (not sent)')).toBeTruthy();
    await expect(within(notTaken).getByText('Approved: Go')).toBeTruthy();
    await expect(
      within(notTaken).getByText('Not sent: this question was already answered in another tab or on another device.'),
    ).toBeTruthy();
  },
};

/** The last page of history failed: why, and the button to try it again, at the top of the thread. */
export const HistoryError: Story = {
  args: { history: 'error', entries: history },
  play: async ({ canvasElement }) => {
    const top = within(canvasElement.querySelector<HTMLElement>('[data-kestrel-part="load-older"]')!);
    await expect(top.getByText('Older messages could not be loaded: could not reach the server.')).toBeTruthy();
    await expect(top.getByRole('button', { name: 'Load older messages' })).toBeTruthy();
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled']);
  },
};

/** The run exists but this page lost it short of an outcome (its stream ended early): what broke, and Reconnect. */
export const InterruptedRun: Story = {
  args: { entries: [...history, { input: 'Plan the database migration', scenario: 'truncated' }] },
  play: async ({ canvasElement }) => {
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled', 'interrupted']);
    const last = within(canvasElement.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')[2]!);
    await expect(last.getByRole('alert')).toHaveTextContent('The stream ended before the run finished');
    await expect(last.getByRole('button', { name: 'Reconnect' })).toBeTruthy();
    // An interrupted run holds nothing: the next message would go at once.
    await expect(canvasElement.querySelector('[data-kestrel-part="composer"]')?.getAttribute('data-state')).toBe(
      'ready',
    );
  },
};

/** A FAILED run that was tried again: it stays as it failed, without a second Try again; its retry follows it. */
export const FailedAfterItsRetry: Story = {
  args: {
    entries: [
      ...history,
      { input: 'Convert 200 USD to EUR', scenario: 'failed-retryable' },
      { input: 'Convert 200 USD to EUR', scenario: 'completed-text' },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled', 'settled', 'settled']);
    const failed = canvasElement.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')[2]!;
    await expect(failed.querySelector('[data-kestrel-part="outcome"]')?.getAttribute('data-status')).toBe('FAILED');
    await expect(within(canvasElement).queryByRole('button', { name: 'Try again' })).toBeNull();
  },
};

const streaming: FixtureEntry = {
  input: 'Summarise the contract',
  scenario: 'completed-text',
  freeze: { until: (s) => s.draftText.length > 40 },
};

/** Policy `reject` while a run streams: the composer says why nothing can be sent, and Send stays disabled. */
export const ComposerBlocked: Story = {
  args: { concurrency: 'reject', entries: [...history, streaming] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelector('[data-kestrel-part="composer"]')?.getAttribute('data-state')).toBe(
      'blocked',
    );
    await expect(canvas.getByText('A run is in progress. Wait for it to finish.')).toBeTruthy();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'One more thing');
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled', 'live']);
  },
};

/** Policy `cancel-previous` while a run streams: sending stops that run and queues the message behind it. */
export const ComposerReplacing: Story = {
  args: { concurrency: 'cancel-previous', entries: [...history, streaming], onAction: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelector('[data-kestrel-part="composer"]')?.getAttribute('data-state')).toBe(
      'replacing',
    );
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Actually, list the parties');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(entryStates(canvasElement)).toEqual(['settled', 'settled', 'live', 'queued']);
    await expect(args.onAction).toHaveBeenCalledWith('send', 'Actually, list the parties');
    await expect(args.onAction).toHaveBeenCalledWith('cancel');
  },
};

const thousand: readonly FixtureEntry[] = Array.from({ length: 1000 }, (_, index) => ({
  input: `Question ${index + 1}: what changed on invoice ${1000 + index}?`,
  scenario: 'completed-text',
}));

/** 1,000 settled runs: only the entries in view are mounted. */
export const ThousandRuns: Story = {
  args: { entries: thousand, history: 'complete' },
  play: async ({ canvasElement }) => {
    await expect(thread(canvasElement).getAttribute('data-state')).toBe('virtual');
    await expect(entryStates(canvasElement).length).toBeLessThan(60);
  },
};

/** Whether two client rects overlap (shared area, not just a shared edge). */
const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * On a phone, scrolled up from the end: "Jump to latest" floats over the bottom of the thread. A control of the
 * thread that sits under it when the person tabs to it is scrolled clear of it (WCAG 2.4.11, focus not obscured):
 * the theme keeps focus out of the thread's last 3.5rem.
 */
export const JumpToLatestNeverCoversFocus: Story = {
  args: { entries: [...history, ...history, ...history] },
  decorators: [(Story) => <div style={{ maxInlineSize: 390 }}>{Story()}</div>],
  play: async ({ canvasElement }) => {
    const log = thread(canvasElement);
    // Only a browser lays out and scrolls (the stories' jsdom run measures 0 and is always at the bottom).
    if (log.clientHeight === 0) return;
    // The message field's focus ring (2px, 2px out) stays inside the view, so a phone's screen edge cannot cut it.
    const box = canvasElement.querySelector('[data-kestrel-session]')!.getBoundingClientRect();
    const field = canvasElement.querySelector('textarea')!.getBoundingClientRect();
    await expect(
      Math.min(field.left - box.left, box.right - field.right, box.bottom - field.bottom),
    ).toBeGreaterThanOrEqual(4);
    log.scrollTop = 0;
    const jump = await within(canvasElement).findByRole('button', { name: 'Jump to latest' });
    // The thread's full-width Activity buttons, one per run: put one right under the floating button.
    const controls = [...log.querySelectorAll<HTMLElement>('[data-kestrel-part="activity"] button')];
    const target = controls[2]!;
    log.scrollTop += target.getBoundingClientRect().top - jump.getBoundingClientRect().top - 4;
    await expect(overlaps(target.getBoundingClientRect(), jump.getBoundingClientRect())).toBe(true);
    // Tab to it from the control before it, as a keyboard user reaches it.
    const focusables = [...log.querySelectorAll<HTMLElement>('button, textarea, input, select, a[href]')];
    focusables[focusables.indexOf(target) - 1]!.focus({ preventScroll: true });
    await userEvent.tab();
    await expect(canvasElement.ownerDocument.activeElement).toBe(target);
    await expect(jump.isConnected).toBe(true);
    await expect(overlaps(target.getBoundingClientRect(), jump.getBoundingClientRect())).toBe(false);
    // Pressed, the button goes with the need for it: focus moves to the thread, not to the top of the page.
    jump.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(jump.isConnected).toBe(false));
    await expect(canvasElement.ownerDocument.activeElement).toBe(log);
  },
};
