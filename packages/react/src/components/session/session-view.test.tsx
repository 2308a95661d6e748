import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Interaction } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { describeModes } from '../../test-support/describe-modes.test-helper.js';
import { expectNoAxeViolations } from '../axe-check.test-helper.js';
import { createFixtureSession, type FixtureEntry } from '../stories/support/fixture-session.js';
import { SessionView } from './session-view.js';

const thread = () => screen.getByRole('log', { name: 'Conversation' });
const field = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const entries = () => [...document.querySelectorAll<HTMLElement>('[data-kestrel-part="entry"]')];
const status = () => document.querySelector('[data-kestrel-part="session-status"]')!;

const settledHistory: readonly FixtureEntry[] = [
  { input: 'What is on the Q3 invoice?', scenario: 'completed-text' },
  { input: 'Is that approved?', scenario: 'waiting-approval' },
];

describeModes('SessionView', ({ options }) => {
  describe('given a thread of settled runs', () => {
    it('shows each message, then its run, in order, in a log that does not read tokens aloud, axe-clean', async () => {
      render(<SessionView session={createFixtureSession({ entries: settledHistory })} />, options);
      expect(thread().getAttribute('aria-live')).toBe('off');
      const [first, second] = entries();
      expect(first!.getAttribute('data-state')).toBe('settled');
      expect(first!.textContent).toMatch(/^YouWhat is on the Q3 invoice\?/);
      expect(first!.textContent).toContain(getScenario('completed-text').expected.assistantText);
      expect(second!.getAttribute('data-state')).toBe('waiting');
      expect(within(second!).getByRole('button', { name: 'Approve' })).toBeTruthy();
      expect(status().textContent).toBe('');
      await expectNoAxeViolations(document.body);
    });

    it("shows the person's answers to a run's questions as their replies", () => {
      const session = createFixtureSession({
        entries: [
          {
            input: 'Book the trip',
            scenario: 'completed-text',
            answers: [
              { interactionId: 'i-1', attempt: 1, answer: { kind: 'approval', approved: true, comment: 'ok' } },
            ],
          },
        ],
      });
      render(<SessionView session={session} />, options);
      const answer = document.querySelector('[data-kestrel-part="answer"]')!;
      expect(answer.textContent).toBe('Your answerApproved: ok');
      // Read from the listing, which carries no question: none is shown.
      expect(document.querySelector('[data-kestrel-part="asked"]')).toBeNull();
    });

    it('shows the question an answer given here replied to, and the answer in its words', async () => {
      const choice: Interaction = {
        id: 'i-flight',
        kind: 'choice',
        prompt: 'Which flight should I book?',
        options: [
          { id: 'fr8341', label: 'FR 8341, 07:10' },
          { id: 'u2210', label: 'U2 210, 09:45' },
        ],
      };
      const form: Interaction = {
        id: 'i-expense',
        kind: 'form',
        prompt: 'How should I file it?',
        fields: [
          { name: 'project', label: 'Project code', type: 'string' },
          { name: 'billable', label: 'Billable to the client', type: 'boolean' },
        ],
      };
      const session = createFixtureSession({
        entries: [
          {
            input: 'Book me a flight to Dublin',
            scenario: 'completed-text',
            answers: [
              {
                interactionId: choice.id,
                attempt: 1,
                answer: { kind: 'choice', selected: ['fr8341'] },
                question: { text: 'Two flights fit your calendar.', interaction: choice },
              },
              {
                interactionId: form.id,
                attempt: 2,
                answer: { kind: 'form', values: { project: 'ACME-7', billable: false } },
                question: { text: null, interaction: form },
              },
            ],
          },
        ],
      });
      render(<SessionView session={session} />, options);
      const [firstAsked, secondAsked] = [...document.querySelectorAll('[data-kestrel-part="asked"]')];
      const [firstAnswer, secondAnswer] = [...document.querySelectorAll('[data-kestrel-part="answer"]')];
      expect(firstAsked!.textContent).toBe('Two flights fit your calendar.Which flight should I book?');
      expect(firstAnswer!.textContent).toBe('Your answerFR 8341, 07:10');
      expect(secondAsked!.textContent).toBe('How should I file it?');
      expect(secondAnswer!.textContent).toBe('Your answerProject code: ACME-7; Billable to the client: No');
      // Each question comes right before its answer.
      expect(firstAsked!.nextElementSibling).toBe(firstAnswer);
      await expectNoAxeViolations(document.body);
    });
  });

  describe('when the person writes', () => {
    it('sends on Enter, adds a line on Shift+Enter, clears the field and keeps focus in it', async () => {
      const onAction = vi.fn();
      render(<SessionView session={createFixtureSession({ onAction })} />, options);
      const user = userEvent.setup();
      await user.click(field());
      await user.keyboard('Two lines{Shift>}{Enter}{/Shift}please{Enter}');
      expect(onAction).toHaveBeenCalledWith('send', 'Two lines\nplease');
      expect(onAction).toHaveBeenCalledTimes(1);
      expect(field().value).toBe('');
      expect(document.activeElement).toBe(field());
      expect(entries().at(-1)!.textContent).toContain('Two lines\nplease');
    });

    it('returns focus to the field after a click on Send, and announces the outcome once', async () => {
      render(<SessionView session={createFixtureSession()} />, options);
      const user = userEvent.setup();
      await user.type(field(), 'Hello');
      await user.click(screen.getByRole('button', { name: 'Send' }));
      expect(document.activeElement).toBe(field());
      expect(status().textContent).toBe('Run finished');
    });

    it('announces each outcome, also the same sentence twice in a row (two runs that end alike)', async () => {
      render(<SessionView session={createFixtureSession()} />, options);
      const heard: string[] = [];
      const observer = new MutationObserver((records) => {
        // New text in the region, whether a text node is added or changed, is what a screen reader announces.
        for (const record of records)
          if (record.type === 'characterData' || record.addedNodes.length > 0) heard.push(status().textContent ?? '');
      });
      observer.observe(status(), { childList: true, characterData: true, subtree: true });
      onTestFinished(() => observer.disconnect());
      const user = userEvent.setup();
      await user.type(field(), 'Hello{Enter}');
      await vi.waitFor(() => expect(heard).toEqual(['Run finished']));
      await user.type(field(), 'Again{Enter}');
      await vi.waitFor(() => expect(heard).toEqual(['Run finished', 'Run finished']));
    });

    it('does not send an empty message', async () => {
      const onAction = vi.fn();
      render(<SessionView session={createFixtureSession({ onAction })} />, options);
      await userEvent.setup().type(field(), '   {Enter}');
      expect(onAction).not.toHaveBeenCalled();
      expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    });
  });

  describe('given a run in progress', () => {
    const live: FixtureEntry = { input: 'Summarise', scenario: 'completed-text', freeze: { upTo: 6 } };

    it('queues a message visibly, announces it, and lets the person withdraw it', async () => {
      render(<SessionView session={createFixtureSession({ entries: [live] })} />, options);
      const user = userEvent.setup();
      await user.type(field(), 'And then?{Enter}');
      const queued = entries().at(-1)!;
      expect(queued.getAttribute('data-state')).toBe('queued');
      expect(queued.textContent).toContain('Queued: sent when the current run finishes');
      expect(status().textContent).toBe('Message queued. It is sent when the current run finishes.');
      await user.click(within(queued).getByRole('button', { name: 'Withdraw' }));
      expect(entries()).toHaveLength(1);
      // The button went with the message: focus is on the thread, not back at the start of the page.
      expect(document.activeElement).toBe(thread());
    });

    it('offers Stop, which cancels the run', async () => {
      const onAction = vi.fn();
      render(<SessionView session={createFixtureSession({ entries: [live], onAction })} />, options);
      await userEvent.setup().click(screen.getByRole('button', { name: 'Stop' }));
      expect(onAction).toHaveBeenCalledWith('cancel');
    });

    it('says so when Stop fails (the run goes on), in an alert, cleared by the next press', async () => {
      const fixture = createFixtureSession({ entries: [live] });
      let refuse = true;
      const session = {
        ...fixture,
        cancel: async () => {
          if (refuse) throw new Error('POST /v1/runs/…/cancel: HTTP 503 unavailable');
        },
      };
      const user = userEvent.setup();
      const { container } = render(<SessionView session={session} />, options);
      await user.click(screen.getByRole('button', { name: 'Stop' }));
      expect((await screen.findByRole('alert')).textContent).toBe(
        'The run could not be stopped and is still running. Try again.',
      );
      await expectNoAxeViolations(container);
      refuse = false;
      await user.click(screen.getByRole('button', { name: 'Stop' }));
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it('under policy reject keeps the draft and disables Send, saying why', async () => {
      render(<SessionView session={createFixtureSession({ entries: [live], concurrency: 'reject' })} />, options);
      await userEvent.setup().type(field(), 'Next{Enter}');
      expect(field().value).toBe('Next');
      expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
      expect(document.getElementById(field().getAttribute('aria-describedby')!)!.textContent).toBe(
        'A run is in progress. Wait for it to finish.',
      );
    });

    it("says in the field's hint that a question waits, so a reply typed there is not taken for its answer", () => {
      render(
        <SessionView
          session={createFixtureSession({ entries: [{ input: 'Approve?', scenario: 'waiting-approval' }] })}
        />,
        options,
      );
      expect(document.getElementById(field().getAttribute('aria-describedby')!)!.textContent).toBe(
        'A question above is waiting for your answer. A message sent here does not answer it.',
      );
    });

    it('says to answer first when the policy refuses messages while a question waits', () => {
      const session = createFixtureSession({
        entries: [{ input: 'Approve?', scenario: 'waiting-approval' }],
        concurrency: 'reject',
      });
      render(<SessionView session={session} />, options);
      expect(document.getElementById(field().getAttribute('aria-describedby')!)!.textContent).toBe(
        'Answer the question above first. Messages can be sent once that run finishes.',
      );
    });

    it('focuses the prompt of the run that waits, not of a waiting run further up', () => {
      const session = createFixtureSession({
        entries: [{ input: 'Approve?', scenario: 'waiting-approval' }],
      });
      render(<SessionView session={session} />, options);
      expect(document.activeElement?.closest('[data-kestrel-part="interaction"]')).not.toBeNull();
    });

    it('leaves focus and every typed word in the composer when a question arrives while the person types', async () => {
      const session = createFixtureSession({
        entries: [{ input: 'Email the report', scenario: 'waiting-approval', freeze: { upTo: 5 } }],
      });
      render(<SessionView session={session} />, options);
      const user = userEvent.setup();
      await user.click(field());
      await user.keyboard('and also mention the broken');
      const run = session.getState().entries[0]!.run as unknown as { source: { step(): boolean } };
      act(() => {
        while (run.source.step()) {
          // to the question
        }
      });
      expect(session.getState().entries[0]?.status).toBe('waiting');
      await user.keyboard(' window');
      expect(document.activeElement).toBe(field());
      expect(field().value).toBe('and also mention the broken window');
    });

    it("asks a run's question with the app's renderInteraction, in the kit's frame", () => {
      const session = createFixtureSession({ entries: [{ input: 'Approve?', scenario: 'waiting-approval' }] });
      render(<SessionView session={session} renderInteraction={() => <p>The app's approval</p>} />, options);
      const prompt = screen.getByRole('group', { name: 'Send the Q3 report to the board (6 recipients)?' });
      expect(within(prompt).getByText("The app's approval")).toBeTruthy();
      expect(within(prompt).queryByRole('button', { name: 'Approve' })).toBeNull();
    });
  });

  describe('when the person scrolls up', () => {
    it('offers "Jump to latest", which scrolls back to the end and hides again', async () => {
      render(<SessionView session={createFixtureSession({ entries: settledHistory })} />, options);
      const log = thread();
      // jsdom lays nothing out: a 2,000 px thread in a 500 px window.
      Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 2000 });
      Object.defineProperty(log, 'clientHeight', { configurable: true, value: 500 });
      expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
      log.scrollTop = 200;
      act(() => void log.dispatchEvent(new Event('scroll')));
      await userEvent.setup().click(screen.getByRole('button', { name: 'Jump to latest' }));
      expect(log.scrollTop).toBe(2000);
      expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
    });
  });

  describe('history', () => {
    it('loads an older page with the button, and says when the start is reached', async () => {
      const session = createFixtureSession({
        entries: settledHistory,
        history: 'more',
        olderPages: [[{ input: 'First question', scenario: 'completed-text' }]],
      });
      render(<SessionView session={session} />, options);
      await userEvent.setup().click(screen.getByRole('button', { name: 'Load older messages' }));
      expect(entries()[0]!.textContent).toContain('First question');
      // A page of history is not read aloud: only outcomes seen happening here are.
      expect(status().textContent).toBe('');
      expect(screen.getByText('Start of the conversation')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
      // The button is gone with the last page: focus is on the thread, not back at the start of the page.
      expect(document.activeElement).toBe(thread());
    });

    it('says when the server keeps no history, and when a page failed (with a way to try again)', () => {
      const session = createFixtureSession({ history: 'unavailable' });
      render(<SessionView session={session} />, options);
      expect(screen.getByText('Older messages are not available from this server.')).toBeTruthy();
      act(() => session.setHistory('error'));
      // An alert: a person who asked for the page with the keyboard, focus still on the button, hears it failed.
      expect(screen.getByRole('alert').textContent).toBe(
        'Older messages could not be loaded: could not reach the server.',
      );
      expect(screen.getByRole('button', { name: 'Load older messages' })).toBeTruthy();
    });

    it('shows an empty conversation as such', () => {
      render(<SessionView session={createFixtureSession()} />, options);
      expect(screen.getByText('No messages yet. Ask something to begin.')).toBeTruthy();
    });
  });
});

describe('a long thread', () => {
  it('mounts only the entries in view of 1,000 settled runs', () => {
    // jsdom lays nothing out: give every element a size, as a browser would (a 600 px thread, 600 px entries).
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 600 });
    onTestFinished(() => void Object.defineProperty(HTMLElement.prototype, 'offsetHeight', height));
    const many = Array.from({ length: 1000 }, (_, index) => ({
      input: `Question ${index}`,
      scenario: 'completed-text',
    }));
    render(<SessionView session={createFixtureSession({ entries: many })} />);
    expect(thread().getAttribute('data-state')).toBe('virtual');
    expect(entries().length).toBeGreaterThan(0);
    expect(entries().length).toBeLessThan(20);
  });
});
