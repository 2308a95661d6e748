import type { InteractionAnswer } from '@kestrel/core';
import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { Assistant } from './docs-examples/custom-interaction.js';
import { InteractionPrompt } from './interaction-prompt.js';
import { Run } from './run-parts.js';
import { RunView } from './run-view.js';
import type { RenderInteraction } from './use-interaction.js';

const question = 'Send the Q3 report to the board (6 recipients)?';
const prompt = () => screen.getByRole('group', { name: question });

function waitingRun(name: string, respond: (answer: InteractionAnswer) => Promise<void> = () => Promise.resolve()) {
  return { ...createScenarioSource(getScenario(name)), respond: vi.fn(respond) };
}

/** A custom UI for a form: one button that sends a fixed, valid expense. */
const oneClickExpense: RenderInteraction = (waiting) =>
  waiting.kind === 'form' ? (
    <button
      type="button"
      onClick={() =>
        void waiting.answer({ kind: 'form', values: { project: 'ACME-7', amount: 23.4, category: 'travel' } })
      }
    >
      File it
    </button>
  ) : undefined;

describeModes('InteractionPrompt with renderInteraction', ({ options }) => {
  describe('given an approval rendered by the app (an email preview with Send and Discard)', () => {
    it('keeps the kit frame around it: labelled by the prompt, kind and state, focused on wait, axe-clean', async () => {
      const { container } = render(<Assistant run={createScenarioRun(getScenario('waiting-approval'))} />, options);
      const frame = prompt();
      expect(frame.getAttribute('data-kestrel-part')).toBe('interaction');
      expect(frame.getAttribute('data-kind')).toBe('approval');
      expect(frame.getAttribute('data-state')).toBe('idle');
      expect(frame.getAttribute('data-authored')).toBe('app');
      expect(document.activeElement).toBe(frame);
      expect(within(frame).getByText('Subject: Q3 report')).toBeTruthy();
      // The app's UI replaces the kit's controls for this kind.
      expect(within(frame).queryByRole('button', { name: 'Approve' })).toBeNull();
      await expectNoAxeViolations(container);
    });

    it('sends the answer the app gives, and the run goes on to its outcome', async () => {
      const user = userEvent.setup();
      const run = createScenarioRun(getScenario('waiting-approval'));
      const respond = vi.spyOn(run, 'respond');
      const { container } = render(<Assistant run={run} />, options);
      await user.type(within(prompt()).getByRole('textbox', { name: 'Comment (optional)' }), 'Go ahead');
      await user.click(screen.getByRole('button', { name: 'Send' }));
      expect(respond).toHaveBeenCalledWith({ kind: 'approval', approved: true, comment: 'Go ahead' });
      const answer = await waitFor(() => {
        const text = container.querySelector('[data-kestrel-part="assistant-text"]');
        expect(text?.textContent).toContain('Sent the Q3 report to all 6 board members.');
        return text;
      });
      expect(answer).toBeTruthy();
      expect(screen.queryByRole('group', { name: question })).toBeNull();
    });

    it('sends once when Send is clicked again while the answer is on its way, and shows it busy', async () => {
      const user = userEvent.setup();
      const run = createScenarioRun(getScenario('waiting-approval'));
      const respond = vi.spyOn(run, 'respond').mockReturnValue(new Promise(() => undefined));
      render(<Assistant run={run} />, options);
      const send = screen.getByRole('button', { name: 'Send' });
      await user.click(send);
      await user.click(send);
      await user.click(screen.getByRole('button', { name: 'Discard' }));
      expect(respond).toHaveBeenCalledTimes(1);
      expect(prompt().getAttribute('data-state')).toBe('submitting');
      expect(prompt().getAttribute('aria-busy')).toBe('true');
      expect(send.textContent).toBe('Sending…');
    });

    it('shows a refused answer as the kit alert and keeps the app UI with what was typed, ready to send again', async () => {
      const user = userEvent.setup();
      const run = createScenarioRun(getScenario('waiting-approval'), { rejectAnswer: 'The board list changed' });
      const respond = vi.spyOn(run, 'respond');
      const { container } = render(<Assistant run={run} />, options);
      const comment = within(prompt()).getByRole('textbox', { name: 'Comment (optional)' });
      await user.type(comment, 'Go ahead');
      await user.click(screen.getByRole('button', { name: 'Send' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('Your answer was not accepted: The board list changed');
      expect(prompt().contains(alert)).toBe(true);
      expect(prompt().getAttribute('data-state')).toBe('rejected');
      // The same element, not a remounted one: the app's state survived.
      expect(within(prompt()).getByRole('textbox', { name: 'Comment (optional)' })).toBe(comment);
      expect(comment).toHaveProperty('value', 'Go ahead');
      await expectNoAxeViolations(container);
      await user.click(screen.getByRole('button', { name: 'Send' }));
      expect(respond).toHaveBeenCalledTimes(2);
    });
  });

  describe('given an interaction with an expiry', () => {
    it('shows the countdown around the app UI, and once expired sends nothing the app asks to send', async () => {
      const user = userEvent.setup();
      const deadline = Date.parse('2099-01-01T00:00:00Z');
      const run = waitingRun('waiting-form');
      const { unmount } = render(
        <InteractionPrompt run={run} renderInteraction={oneClickExpense} now={() => deadline - 125_000} />,
        options,
      );
      expect(screen.getByText('Expires in 2 min 5 s')).toBeTruthy();
      unmount();
      render(<InteractionPrompt run={run} renderInteraction={oneClickExpense} now={() => deadline + 1} />, options);
      const frame = screen.getByRole('group', { name: 'Complete the expense details' });
      expect(frame.getAttribute('data-state')).toBe('expired');
      expect(within(frame).getByText(/has expired/)).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'File it' }));
      expect(run.respond).not.toHaveBeenCalled();
    });
  });

  describe('when the renderer returns undefined for a kind', () => {
    it('shows the kit form for that kind, and the app UI for the kind it renders', async () => {
      const user = userEvent.setup();
      const run = waitingRun('waiting-approval');
      const { unmount } = render(<InteractionPrompt run={run} renderInteraction={oneClickExpense} />, options);
      expect(screen.getByRole('form', { name: question })).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Approve' }));
      expect(run.respond).toHaveBeenCalledWith({ kind: 'approval', approved: true });
      unmount();
      const form = waitingRun('waiting-form');
      render(<InteractionPrompt run={form} renderInteraction={oneClickExpense} />, options);
      await user.click(screen.getByRole('button', { name: 'File it' }));
      expect(form.respond).toHaveBeenCalledWith({
        kind: 'form',
        values: { project: 'ACME-7', amount: 23.4, category: 'travel' },
      });
    });
  });

  describe('given the renderer on Run.Root', () => {
    it('reaches Run.Prompt below it, and a renderer on the part wins over the root one', () => {
      const run = createScenarioRun(getScenario('waiting-approval'));
      const fromRoot: RenderInteraction = () => <p>From the root</p>;
      const { unmount } = render(
        <Run.Root run={run} renderInteraction={fromRoot}>
          <Run.Prompt />
        </Run.Root>,
        options,
      );
      expect(within(prompt()).getByText('From the root')).toBeTruthy();
      unmount();
      render(
        <Run.Root run={run} renderInteraction={fromRoot}>
          <Run.Prompt renderInteraction={() => <p>From the part</p>} />
        </Run.Root>,
        options,
      );
      expect(within(prompt()).getByText('From the part')).toBeTruthy();
    });

    it('does not reach a Run.Prompt given a run of its own, as the other root renderers do not', () => {
      const run = createScenarioRun(getScenario('waiting-approval'));
      render(
        <Run.Root run={createScenarioRun(getScenario('completed-text'))} renderInteraction={() => <p>From the root</p>}>
          <Run.Prompt run={run} />
        </Run.Root>,
        options,
      );
      expect(screen.getByRole('form', { name: question })).toBeTruthy();
      expect(screen.queryByText('From the root')).toBeNull();
    });

    it('is what RunView passes down', () => {
      render(
        <RunView run={createScenarioRun(getScenario('waiting-approval'))} renderInteraction={() => <p>Mine</p>} />,
        options,
      );
      expect(within(prompt()).getByText('Mine')).toBeTruthy();
    });
  });
});
