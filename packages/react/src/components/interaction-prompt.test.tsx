import { RunUsageError, type Interaction, type InteractionAnswer } from '@kestrel/core';
import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { startLoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { InteractionPrompt } from './interaction-prompt.js';

// jsdom has no CSS.escape, which user-event uses for arrow keys in radio groups.
globalThis.CSS ??= { escape: (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (char) => `\\${char}`) } as typeof CSS;

function waitingRun(name: string, respond: (answer: InteractionAnswer) => Promise<void> = () => Promise.resolve()) {
  return { ...createScenarioSource(getScenario(name)), respond: vi.fn(respond) };
}

describe('InteractionPrompt', () => {
  it('asks for approval with the action, details and an optional comment; focus lands on the prompt', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-approval');
    const { container } = render(<InteractionPrompt run={run} />);
    const form = screen.getByRole('form', { name: 'Send the Q3 report to the board (6 recipients)?' });
    expect(document.activeElement).toBe(form);
    expect(form.getAttribute('data-kestrel-part')).toBe('interaction');
    expect(form.getAttribute('data-kind')).toBe('approval');
    expect(form.textContent).toContain('email.send');
    expect(form.textContent).toContain('recipients6');
    await expectNoAxeViolations(container);

    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Comment (optional)'));
    await user.keyboard('Go ahead');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve' }));
    await user.keyboard('{Enter}');
    expect(run.respond).toHaveBeenCalledWith({ kind: 'approval', approved: true, comment: 'Go ahead' });
  });

  it('rejects without a comment', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-approval');
    render(<InteractionPrompt run={run} />);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(run.respond).toHaveBeenCalledWith({ kind: 'approval', approved: false });
  });

  it('picks one option from a radio group labelled by the prompt', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-choice-single');
    const { container } = render(<InteractionPrompt run={run} />);
    const group = screen.getByRole('radiogroup', { name: 'Which flight should I book?' });
    expect(group.querySelectorAll('input[type="radio"]')).toHaveLength(3);
    expect(screen.getByRole('radio', { name: 'FR 8341, 12:40' }).getAttribute('aria-describedby')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'TP 1351, 07:05' }));
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'FR 8341, 12:40' })).toHaveProperty('checked', true);
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledWith({ kind: 'choice', selected: ['fr8341'] });
  });

  it('picks several options and shows the validation message next to the group when none is picked', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-choice-multiple');
    const { container } = render(<InteractionPrompt run={run} />);
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).not.toHaveBeenCalled();
    const group = screen.getByRole('group', { name: 'Which sections should the summary cover?' });
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(group.textContent).toContain('Choose an option');
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole('checkbox', { name: 'Finance' }));
    await user.click(screen.getByRole('checkbox', { name: 'Outlook' }));
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledWith({ kind: 'choice', selected: ['finance', 'outlook'] });
  });

  it('asks for multi-line text and refuses an empty answer with a message tied to the field', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-text');
    const { container } = render(<InteractionPrompt run={run} />);
    const field = screen.getByRole('textbox', { name: 'What should the reply ask the landlord for?' });
    expect(field.tagName).toBe('TEXTAREA');
    expect(field.getAttribute('placeholder')).toBe('e.g. fix the heating by Friday');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).not.toHaveBeenCalled();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe('An answer is required');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await expectNoAxeViolations(container);
    await user.type(field, 'Please fix the heating by Friday.');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledWith({ kind: 'text', text: 'Please fix the heating by Friday.' });
  });

  it('fills a form with string, number, boolean and enum fields, with required marks and messages per field', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-form');
    const { container } = render(<InteractionPrompt run={run} />);
    const project = screen.getByRole('textbox', { name: /Project code/ });
    const amount = screen.getByRole('textbox', { name: /Amount \(EUR\)/ });
    const billable = screen.getByRole('checkbox', { name: 'Billable to client' });
    const category = screen.getByRole('combobox', { name: /Category/ });
    expect(project.getAttribute('aria-required')).toBe('true');
    expect(billable.getAttribute('aria-required')).toBeNull();
    expect(container.querySelectorAll('[data-kestrel-required]')).toHaveLength(3);
    await expectNoAxeViolations(container);

    await user.type(amount, 'twenty');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).not.toHaveBeenCalled();
    const messageOf = (element: HTMLElement) =>
      document.getElementById((element.getAttribute('aria-describedby') ?? '').split(' ').at(-1) ?? '')?.textContent;
    expect(messageOf(project)).toBe('Project code is required');
    expect(messageOf(amount)).toBe('Amount (EUR) must be a number');
    expect(messageOf(category)).toMatch(/Category is required/);
    await expectNoAxeViolations(container);

    await user.type(project, 'ACME-7');
    await user.clear(amount);
    await user.type(amount, '23.4');
    await user.click(billable);
    await user.selectOptions(category, 'travel');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledWith({
      kind: 'form',
      values: { project: 'ACME-7', amount: 23.4, billable: true, category: 'travel' },
    });
  });

  it('blocks a second submission while the first is on its way', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-text', () => new Promise(() => undefined));
    const { container } = render(<InteractionPrompt run={run} />);
    await user.type(screen.getByRole('textbox'), 'Soon');
    const button = screen.getByRole('button', { name: 'Send answer' });
    await user.click(button);
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(run.respond).toHaveBeenCalledTimes(1);
    const form = screen.getByRole('form');
    expect(form.getAttribute('data-state')).toBe('submitting');
    expect(form.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.textContent).toBe('Sending…');
    await expectNoAxeViolations(container);
  });

  it('shows a server rejection as an alert and keeps everything typed', async () => {
    const user = userEvent.setup();
    const run = createScenarioRun(getScenario('waiting-form'), { rejectAnswer: 'Project ACME-7 is closed' });
    const respond = vi.spyOn(run, 'respond');
    const { container } = render(<InteractionPrompt run={run} />);
    await user.type(screen.getByRole('textbox', { name: /Project code/ }), 'ACME-7');
    await user.type(screen.getByRole('textbox', { name: /Amount/ }), '23.4');
    await user.selectOptions(screen.getByRole('combobox', { name: /Category/ }), 'meals');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your answer was not accepted: Project ACME-7 is closed');
    expect(screen.getByRole('form').getAttribute('data-state')).toBe('rejected');
    expect(screen.getByRole('textbox', { name: /Project code/ })).toHaveProperty('value', 'ACME-7');
    expect(screen.getByRole('textbox', { name: /Amount/ })).toHaveProperty('value', '23.4');
    expect(screen.getByRole('combobox', { name: /Category/ })).toHaveProperty('value', 'meals');
    await expectNoAxeViolations(container);
    // and it can be sent again
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(respond).toHaveBeenCalledTimes(2);
  });

  it('says an answer that never got through the network did not go through (not refused), and keeps it to send again', async () => {
    const user = userEvent.setup();
    const kestrel = await startLoopbackKestrel();
    try {
      let offline = true;
      // The browser's fetch rejects with a TypeError when the network is down.
      const fetchUnlessOffline: typeof fetch = (input, init) =>
        offline && String(input).includes('/interactions/')
          ? Promise.reject(new TypeError('Failed to fetch'))
          : fetch(input, init);
      const scenario = getScenario('waiting-text');
      const client = kestrel.client({ scenario: scenario.name, fetch: fetchUnlessOffline });
      function Prompt() {
        const run = useRun({ client });
        const { start } = run;
        useEffect(() => {
          start(scenario.input);
        }, [start]);
        return <InteractionPrompt run={run} />;
      }
      const { container } = render(<Prompt />);
      const field = await screen.findByRole('textbox', {}, { timeout: 5000 });
      await user.type(field, 'Please fix the heating by Friday.');
      await user.click(screen.getByRole('button', { name: 'Send answer' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(/^Your answer did not go through: /);
      expect(alert.textContent).not.toMatch(/not accepted/);
      expect(screen.getByRole('form').getAttribute('data-state')).toBe('unsent');
      expect(field).toHaveProperty('value', 'Please fix the heating by Friday.');
      await expectNoAxeViolations(container);
      offline = false;
      await user.click(screen.getByRole('button', { name: 'Send answer' }));
      await waitFor(() => expect(screen.queryByRole('form')).toBeNull(), { timeout: 5000 });
    } finally {
      await kestrel.close();
    }
  });

  it('counts down to expiresAt and stops answers once expired', async () => {
    const user = userEvent.setup();
    const deadline = Date.parse('2099-01-01T00:00:00Z');
    const run = waitingRun('waiting-form');
    const { unmount } = render(<InteractionPrompt run={run} now={() => deadline - 125_000} />);
    expect(screen.getByText('Expires in 2 min 5 s').closest('time')?.getAttribute('datetime')).toBe(
      '2099-01-01T00:00:00Z',
    );
    unmount();
    render(<InteractionPrompt run={run} now={() => deadline + 1} />);
    expect(screen.getByText(/has expired/)).toBeTruthy();
    expect(screen.getByRole('form').getAttribute('data-state')).toBe('expired');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).not.toHaveBeenCalled();
  });

  it('shows an expiry more than three days away as a date, not as "Expires in 26328 d 8 h"', () => {
    const run = waitingRun('waiting-form');
    const { unmount } = render(<InteractionPrompt run={run} now={() => Date.parse('2026-12-01T12:00:00Z')} />);
    const expiry = screen.getByText(/^Expires/);
    expect(expiry.textContent).toBe(
      `Expires on ${new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' }).format(new Date('2099-01-01T00:00:00Z'))}`,
    );
    expect(expiry.textContent).toMatch(/2099/);
    expect(expiry.closest('time')?.getAttribute('datetime')).toBe('2099-01-01T00:00:00Z');
    unmount();
    // Three days or less: still a countdown.
    render(<InteractionPrompt run={run} now={() => Date.parse('2098-12-29T00:00:00Z')} />);
    expect(screen.getByText('Expires in 3 d 0 h')).toBeTruthy();
  });

  it('shows the interaction as expired when the client refuses the answer as expired before the countdown ends', async () => {
    const user = userEvent.setup();
    const run = waitingRun('waiting-form', () =>
      Promise.reject(new RunUsageError('expired', 'This interaction expired')),
    );
    render(<InteractionPrompt run={run} now={() => Date.parse('2099-01-01T00:00:00Z') - 500} />);
    await user.type(screen.getByRole('textbox', { name: /Project code/ }), 'ACME-7');
    await user.type(screen.getByRole('textbox', { name: /Amount/ }), '23.4');
    await user.selectOptions(screen.getByRole('combobox', { name: /Category/ }), 'meals');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(screen.getByRole('form').getAttribute('data-state')).toBe('expired'));
    expect(screen.getByText(/has expired/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an unsupported kind read-only with its prompt', async () => {
    const { container } = render(<InteractionPrompt run={waitingRun('waiting-unknown-kind')} />);
    const group = screen.getByRole('group', { name: 'Sign the contract with your registered signature' });
    expect(group.getAttribute('data-kind')).toBe('unsupported');
    expect(group.getAttribute('data-original-kind')).toBe('signature');
    expect(group.textContent).toContain('cannot be answered here');
    expect(container.querySelectorAll('input, textarea, select, button')).toHaveLength(0);
    await expectNoAxeViolations(container);
  });

  it('renders nothing unless the run is waiting', () => {
    const { container } = render(<InteractionPrompt run={waitingRun('completed-text')} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('InteractionPrompt with form fields named like Object.prototype members', () => {
  function oddFormRun(required: boolean) {
    const source = createScenarioSource(getScenario('waiting-form'));
    const state = source.getState();
    if (state.phase !== 'settled' || state.status !== 'WAITING') throw new Error('waiting-form does not end WAITING');
    const interaction: Interaction = {
      kind: 'form',
      id: 'int_proto',
      prompt: 'Odd names',
      fields: ['constructor', 'toString', '__proto__'].map((name) => ({
        name,
        label: `Field ${name}`,
        type: 'string' as const,
        required,
      })),
    };
    const waiting = { ...state, output: { ...state.output, interaction } };
    return {
      getState: () => waiting,
      subscribe: source.subscribe,
      respond: vi.fn((_answer: InteractionAnswer) => Promise.resolve()),
    };
  }

  it('sends an empty answer when they are optional and left empty', async () => {
    const user = userEvent.setup();
    const run = oddFormRun(false);
    render(<InteractionPrompt run={run} />);
    for (const name of ['constructor', 'toString', '__proto__'])
      expect(screen.getByRole('textbox', { name: `Field ${name}` })).toHaveProperty('value', '');
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledWith({ kind: 'form', values: {} });
  });

  it('sends what was typed into each of them, __proto__ as an own key', async () => {
    const user = userEvent.setup();
    const run = oddFormRun(true);
    render(<InteractionPrompt run={run} />);
    for (const name of ['constructor', 'toString', '__proto__'])
      await user.type(screen.getByRole('textbox', { name: `Field ${name}` }), name.slice(0, 3));
    await user.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(run.respond).toHaveBeenCalledTimes(1);
    const sent = run.respond.mock.calls[0]![0];
    expect(JSON.stringify(sent)).toBe(
      '{"kind":"form","values":{"constructor":"con","toString":"toS","__proto__":"__p"}}',
    );
  });
});
