import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { renderEmailApproval } from '../docs-examples/custom-interaction.js';
import { answerOnly } from './support/answer-query.js';
import { ScenarioView } from './support/scenario-view.js';

/** Answering a WAITING run, played: each story fills the prompt the way a person would and checks what follows. */
const meta = {
  title: 'Components/InteractionPrompt',
  component: ScenarioView,
  args: { onAction: fn() },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ScenarioView>;

export default meta;
type Story = StoryObj<typeof meta>;

export const ApproveWithComment: Story = {
  args: { scenario: 'waiting-approval' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const prompt = canvas.getByRole('form', { name: 'Send the Q3 report to the board (6 recipients)?' });
    await waitFor(() => expect(prompt.ownerDocument.activeElement).toBe(prompt));
    await userEvent.type(canvas.getByLabelText('Comment (optional)'), 'Go ahead');
    await userEvent.click(canvas.getByRole('button', { name: 'Approve' }));
    await expect(args.onAction).toHaveBeenCalledWith('respond', {
      kind: 'approval',
      approved: true,
      comment: 'Go ahead',
    });
    await expect(await canvas.findByText('Sent the Q3 report to all 6 board members.', answerOnly)).toBeTruthy();
    // The question went with its answer; focus stayed in the run view instead of falling to the page.
    await expect(prompt.ownerDocument.activeElement).toBe(canvasElement.querySelector('[data-kestrel-run]'));
  },
};

/**
 * The app renders the approval (an email preview with Send and Discard, `renderInteraction`); the kit keeps the
 * frame: labelled by the prompt, focused on wait, busy while sending, and the answer is checked and sent once.
 */
export const CustomApproval: Story = {
  args: { scenario: 'waiting-approval', renderInteraction: renderEmailApproval, respondDelayMs: 300 },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const prompt = canvas.getByRole('group', { name: 'Send the Q3 report to the board (6 recipients)?' });
    await waitFor(() => expect(prompt.ownerDocument.activeElement).toBe(prompt));
    await expect(prompt).toHaveAttribute('data-authored', 'app');
    await expect(within(prompt).getByText('Subject: Q3 report')).toBeTruthy();
    await expect(within(prompt).queryByRole('button', { name: 'Approve' })).toBeNull();
    await userEvent.type(within(prompt).getByRole('textbox', { name: 'Comment (optional)' }), 'Go ahead');
    const send = within(prompt).getByRole('button', { name: 'Send' });
    await userEvent.click(send);
    await userEvent.click(send);
    await expect(prompt).toHaveAttribute('data-state', 'submitting');
    await expect(args.onAction).toHaveBeenCalledTimes(1);
    await expect(args.onAction).toHaveBeenCalledWith('respond', {
      kind: 'approval',
      approved: true,
      comment: 'Go ahead',
    });
    await expect(await canvas.findByText('Sent the Q3 report to all 6 board members.', answerOnly)).toBeTruthy();
  },
};

export const Reject: Story = {
  args: { scenario: 'waiting-approval' },
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Reject' }));
    await expect(args.onAction).toHaveBeenCalledWith('respond', { kind: 'approval', approved: false });
  },
};

export const PickOneFlight: Story = {
  args: { scenario: 'waiting-choice-single' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('radio', { name: 'TP 1351, 07:05' }));
    await userEvent.keyboard('{ArrowDown}');
    await expect(canvas.getByRole('radio', { name: 'FR 8341, 12:40' })).toBeChecked();
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(args.onAction).toHaveBeenCalledWith('respond', { kind: 'choice', selected: ['fr8341'] });
    await expect(await canvas.findByText(/Booked FR 8341/, answerOnly)).toBeTruthy();
  },
};

export const PickSeveralSections: Story = {
  args: { scenario: 'waiting-choice-multiple' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(canvas.getByText('Choose an option')).toBeTruthy();
    await expect(args.onAction).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Finance' }));
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Outlook' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(args.onAction).toHaveBeenCalledWith('respond', { kind: 'choice', selected: ['finance', 'outlook'] });
  },
};

export const AnswerInWords: Story = {
  args: { scenario: 'waiting-text' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(
      canvas.getByRole('textbox', { name: 'What should the reply ask the landlord for?' }),
      'Please fix the heating by Friday.',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(await canvas.findByText(/Dear Ms Lane/, answerOnly)).toBeTruthy();
  },
};

export const FormValidationErrors: Story = {
  args: { scenario: 'waiting-form' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: /Amount/ }), 'twenty');
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(canvas.getByText('Project code is required')).toBeTruthy();
    await expect(canvas.getByText('Amount (EUR) must be a number')).toBeTruthy();
    await expect(canvas.getByRole('textbox', { name: /Project code/ })).toHaveAttribute('aria-invalid', 'true');
    await expect(args.onAction).not.toHaveBeenCalled();
  },
};

export const FillTheForm: Story = {
  args: { scenario: 'waiting-form' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: /Project code/ }), 'ACME-7');
    await userEvent.type(canvas.getByRole('textbox', { name: /Amount/ }), '23.4');
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Billable to client' }));
    await userEvent.selectOptions(canvas.getByRole('combobox', { name: /Category/ }), 'travel');
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect(args.onAction).toHaveBeenCalledWith('respond', {
      kind: 'form',
      values: { project: 'ACME-7', amount: 23.4, billable: true, category: 'travel' },
    });
    await expect(await canvas.findByText(/Filed a EUR 23.40 travel expense/, answerOnly)).toBeTruthy();
  },
};

export const ServerRejectsTheAnswer: Story = {
  args: { scenario: 'waiting-form', rejectAnswer: 'Project ACME-7 is closed for expenses' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: /Project code/ }), 'ACME-7');
    await userEvent.type(canvas.getByRole('textbox', { name: /Amount/ }), '23.4');
    await userEvent.selectOptions(canvas.getByRole('combobox', { name: /Category/ }), 'meals');
    await userEvent.click(canvas.getByRole('button', { name: 'Send answer' }));
    await expect((await canvas.findByRole('alert')).textContent).toContain('Project ACME-7 is closed for expenses');
    await expect(canvas.getByRole('textbox', { name: /Project code/ })).toHaveValue('ACME-7');
    await expect(canvas.getByRole('combobox', { name: /Category/ })).toHaveValue('meals');
  },
};

/**
 * Another tab approved first: the server refuses this answer (409 `interaction_answered`), the run shows what the
 * other answer started, and where the question was an alert says this answer was not sent.
 */
export const AnsweredInAnotherTab: Story = {
  args: { scenario: 'waiting-approval', answeredElsewhere: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Reject' }));
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent(
      'Not sent: this question was already answered in another tab or on another device.',
    );
    await expect(alert).toHaveAttribute('data-state', 'not-taken');
    await expect(canvas.queryByRole('button', { name: 'Reject' })).toBeNull();
  },
};

export const SubmittingBlocksDoubleSubmit: Story = {
  args: { scenario: 'waiting-text', respondDelayMs: 10_000 },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox'), 'Soon');
    const send = canvas.getByRole('button', { name: 'Send answer' });
    await userEvent.click(send);
    await userEvent.click(send);
    await expect(send).toHaveTextContent('Sending…');
    await expect(args.onAction).toHaveBeenCalledTimes(1);
  },
};

export const UnsupportedKind: Story = {
  args: { scenario: 'waiting-unknown-kind' },
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole('group', {
      name: 'Sign the contract with your registered signature',
    });
    await expect(group.querySelectorAll('input, button, textarea, select')).toHaveLength(0);
  },
};
