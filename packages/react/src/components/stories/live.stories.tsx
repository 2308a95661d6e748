import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { answerOnly } from './support/answer-query.js';
import { LiveScenario } from './support/live-scenario.js';

/**
 * Live: `useRun` and the real run client play a scenario over `createScenarioFetch` (an in-memory Kestrel), so the
 * stream really streams, drops really resume and answers really start a new attempt. Press Play.
 */
const meta = { title: 'Atlas/Live', component: LiveScenario, args: { eventDelayMs: 25 } } satisfies Meta<
  typeof LiveScenario
>;
export default meta;
type Story = StoryObj<typeof meta>;

const settle = async (canvasElement: HTMLElement, phase: string, status?: string) => {
  const root = () => canvasElement.querySelector('[data-kestrel-run]');
  await waitFor(() => expect(root()).toHaveAttribute('data-phase', phase), { timeout: 8000 });
  if (status !== undefined) await expect(root()).toHaveAttribute('data-status', status);
};

const press = (canvasElement: HTMLElement) =>
  userEvent.click(within(canvasElement).getByRole('button', { name: /^Play/ }));

export const TextAndPayload: Story = {
  args: { scenario: 'completed-payload', markdown: true },
  play: async (context) => {
    await press(context.canvasElement);
    await settle(context.canvasElement, 'settled', 'COMPLETED');
    await expect(within(context.canvasElement).getByRole('group', { name: 'Application content' })).toBeTruthy();
  },
};

export const ApproveAndContinue: Story = {
  args: { scenario: 'waiting-approval' },
  play: async (context) => {
    const canvas = within(context.canvasElement);
    await press(context.canvasElement);
    await settle(context.canvasElement, 'settled', 'WAITING');
    await userEvent.click(canvas.getByRole('button', { name: 'Approve' }));
    await waitFor(
      () => expect(canvas.getByText('Sent the Q3 report to all 6 board members.', answerOnly)).toBeTruthy(),
      {
        timeout: 8000,
      },
    );
    await settle(context.canvasElement, 'settled', 'COMPLETED');
  },
};

export const DroppedAndResumed: Story = {
  args: { scenario: 'dropped-mid-stream' },
  play: async (context) => {
    await press(context.canvasElement);
    await settle(context.canvasElement, 'settled', 'COMPLETED');
    await expect(context.canvasElement.querySelector('[data-kestrel-part="assistant-text"]')).toHaveTextContent(
      /12 million in the metropolitan area/,
    );
  },
};

export const Truncated: Story = {
  args: { scenario: 'truncated' },
  play: async (context) => {
    await press(context.canvasElement);
    await settle(context.canvasElement, 'error');
    await expect(within(context.canvasElement).getByRole('alert')).toHaveAttribute('data-error-kind', 'truncated');
  },
};

export const ProtocolError: Story = {
  args: { scenario: 'malformed-event' },
  play: async (context) => {
    await press(context.canvasElement);
    await settle(context.canvasElement, 'error');
    await expect(within(context.canvasElement).getByRole('alert')).toHaveAttribute('data-error-kind', 'protocol');
  },
};

export const FailedRetryable: Story = { args: { scenario: 'failed-retryable' } };
