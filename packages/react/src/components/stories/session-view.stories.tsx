import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
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
    answers: [{ interactionId: 'i-approve', attempt: 1, answer: { kind: 'approval', approved: true, comment: 'Go' } }],
  },
];

const thread = (canvasElement: HTMLElement) => within(canvasElement).getByRole('log', { name: 'Conversation' });
const entryStates = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll('[data-kestrel-part="entry"]')].map((entry) => entry.getAttribute('data-state'));

/** A new conversation: nothing yet, the composer ready. */
export const Empty: Story = {
  args: { sessionId: null, history: 'unknown' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('No messages yet. Ask something to begin.')).toBeTruthy();
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

/** Older runs exist: the button at the top (it also loads by itself when scrolled into view). */
export const MoreHistory: Story = {
  args: { history: 'more', entries: history, olderPages: [[{ input: 'Hello', scenario: 'completed-text' }]] },
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

/** A message that did not get through, with a way to send it again. */
export const FailedToSend: Story = {
  args: { entries: [...history, { input: 'Are you there?', scenario: 'completed-text', status: 'failed-to-send' }] },
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
