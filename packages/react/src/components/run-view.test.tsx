import {
  createScenarioRun,
  createScenarioSource,
  getScenario,
  invoiceSchema,
  scenarios,
  type Invoice,
} from '@kestrel/testing';
import type { RunBinding } from '@kestrel/core';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { resetPayloadWarnings } from './payload-panel.js';
import { RunView } from './run-view.js';

afterEach(() => {
  vi.restoreAllMocks();
  resetPayloadWarnings();
});

const part = (root: HTMLElement, name: string) => root.querySelector<HTMLElement>(`[data-kestrel-part="${name}"]`);

describe('RunView', () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    'shows %s as its outcome says, without axe violations',
    async (_name, scenario) => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const run = createScenarioRun(scenario, {
        payloadSchema: scenario.usesInvoiceSchema ? invoiceSchema : undefined,
      });
      const { container } = render(<RunView run={run} focusOnWait={false} />);
      const root = container.firstElementChild as HTMLElement;
      expect(root.hasAttribute('data-kestrel-run')).toBe(true);
      expect(root.getAttribute('data-phase')).toBe(scenario.expected.phase);
      expect(root.getAttribute('data-status')).toBe(
        scenario.expected.phase === 'settled' ? scenario.expected.status : null,
      );
      if (scenario.expected.phase === 'error') {
        expect(screen.getByRole('alert').getAttribute('data-error-kind')).toBe(scenario.expected.errorKind);
        expect(part(root, 'assistant-text')).toBeNull(); // an error is never dressed as an outcome
        expect(part(root, 'outcome')).toBeNull();
      } else {
        expect(screen.queryByRole('alert')).toBeNull();
      }
      if (typeof scenario.expected.assistantText === 'string')
        expect(part(root, 'assistant-text')?.textContent).toBe(scenario.expected.assistantText);
      if (scenario.expected.status === 'WAITING') expect(part(root, 'interaction')).not.toBeNull();
      // A COMPLETED answer whose last root turn did not end normally carries a note; nothing else does.
      const { status, finishReason } = scenario.expected;
      const noted =
        status === 'COMPLETED' && typeof finishReason === 'string' && finishReason !== 'completed'
          ? finishReason
          : null;
      expect(part(root, 'finish-notice')?.getAttribute('data-finish-reason') ?? null).toBe(noted);
      // Streamed text never passes for a result: gone once settled, marked incomplete after an error.
      const draft = part(root, 'draft');
      if (scenario.expected.phase === 'settled') expect(draft).toBeNull();
      else if (draft !== null) expect(draft.getAttribute('data-state')).toBe('interrupted');
      await expectNoAxeViolations(container);
    },
  );

  it('shows activity and the draft while streaming, then the final text and the app-rendered payload', async () => {
    const source = createScenarioSource<Invoice>(getScenario('completed-payload'), {
      payloadSchema: invoiceSchema,
      until: (state) => state.draftText.length > 10,
    });
    const run = {
      ...createScenarioRun<Invoice>(getScenario('completed-payload')),
      getState: source.getState,
      subscribe: source.subscribe,
    };
    const { container } = render(
      <RunView run={run} renderPayload={(invoice) => <p>Invoice {invoice.invoiceNumber}</p>} />,
    );
    const root = container.firstElementChild as HTMLElement;
    expect(root.getAttribute('data-phase')).toBe('streaming');
    expect(part(root, 'activity')?.getAttribute('data-state')).toBe('collapsed');
    expect(part(root, 'draft')?.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Stop the run' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Run started');
    await expectNoAxeViolations(container);
    act(() => {
      while (source.step()) {
        // to run.completed
      }
    });
    expect(root.getAttribute('data-status')).toBe('COMPLETED');
    expect(part(root, 'draft')).toBeNull();
    expect(part(root, 'assistant-text')?.textContent).toContain('totals EUR 1,260.50');
    const payload = screen.getByRole('group', { name: 'Application content' });
    expect(payload.textContent).toBe('Invoice INV-2041');
    expect(payload.getAttribute('data-authored')).toBe('app');
    expect(part(root, 'assistant-text')?.contains(payload)).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('Run finished');
    await expectNoAxeViolations(container);
  });

  it('notes an answer cut off at the length limit right after its text, announced once in the one status region', async () => {
    const { container } = render(<RunView run={createScenarioRun(getScenario('max-tokens'))} />);
    const root = container.firstElementChild as HTMLElement;
    const note = part(root, 'finish-notice');
    expect(note?.textContent).toBe('Stopped at the length limit: the answer may be incomplete.');
    expect(part(root, 'assistant-text')?.nextElementSibling).toBe(note);
    // One live region: the note is said there, with the outcome, not by a second region competing with it.
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect([...container.querySelectorAll('[aria-live]')].filter((region) => region.textContent !== '')).toHaveLength(
      1,
    );
    expect(screen.getByRole('status').textContent).toBe(`Run finished. ${note?.textContent ?? ''}`);
    await expectNoAxeViolations(container);
  });

  it('translates the note through its labels prop', () => {
    render(
      <RunView run={createScenarioRun(getScenario('max-tokens'))} labels={{ finishNotice: () => 'Abgeschnitten' }} />,
    );
    expect(screen.getByRole('note').textContent).toBe('Abgeschnitten');
    expect(screen.getByRole('status').textContent).toBe('Run finished. Abgeschnitten');
  });

  it('never drops a payload silently: without a renderer it shows a notice and warns once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const run = createScenarioRun(getScenario('completed-payload'), { payloadSchema: invoiceSchema });
    const { rerender } = render(<RunView run={run} />);
    rerender(<RunView run={run} className="again" />);
    expect(screen.getByText(/returned a structured result that this view does not display/)).toBeTruthy();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('shows FAILED with code, message, its text and a retry when retryable', async () => {
    const user = userEvent.setup();
    const run = createScenarioRun(getScenario('failed-retryable'));
    const retry = vi.spyOn(run, 'retry');
    const { container } = render(<RunView run={run} />);
    const outcome = part(container, 'outcome') as HTMLElement;
    expect(outcome.getAttribute('data-status')).toBe('FAILED');
    expect(outcome.textContent).toContain('The model provider is overloaded. Try again shortly.');
    expect(outcome.textContent).toContain('provider_overloaded');
    expect(part(container, 'assistant-text')?.textContent).toBe(
      'I could not finish the conversion because the model provider is overloaded.',
    );
    await user.click(within(outcome).getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    render(<RunView run={createScenarioRun(getScenario('failed-no-text'))} />);
    expect(screen.getAllByText(/policy_denied/)).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(1);
  });

  it('offers "Try again" on a retryable FAILED only when it can start the run again: not for a run resumed by id', async () => {
    const user = userEvent.setup();
    const kestrel = await startLoopbackKestrel();
    try {
      const scenario = getScenario('failed-retryable');
      const client = kestrel.client({ scenario: scenario.name });
      const { runId } = await client.start({ input: scenario.input }).result;
      let resumedRun: RunBinding | null = null;
      function Resumed() {
        const run = useRun({ client, resumeRunId: runId });
        resumedRun = run;
        return <RunView run={run} />;
      }
      const resumed = render(<Resumed />);
      const outcome = await waitFor(
        () => part(resumed.container, 'outcome') ?? Promise.reject(new Error('not settled yet')),
        { timeout: 5000 },
      );
      expect(outcome.getAttribute('data-status')).toBe('FAILED');
      // Still said to be retryable, but no button that would send nothing.
      expect(outcome.getAttribute('data-retryable')).toBe('true');
      expect(within(outcome).queryByRole('button')).toBeNull();
      expect(resumedRun!.getRetryMode()).toBeNull();
      resumed.unmount();

      let startedRun: RunBinding | null = null;
      function Started() {
        const run = useRun({ client });
        startedRun = run;
        return <RunView run={run} />;
      }
      const started = render(<Started />);
      act(() => startedRun!.start(scenario.input));
      const retry = await within(started.container).findByRole('button', { name: 'Try again' }, { timeout: 5000 });
      const first = startedRun!.getState().runId;
      const starts = kestrel.sent('POST', /\/runs$/).length;
      await user.click(retry);
      await waitFor(() => expect(startedRun!.getState().runId).not.toBe(first), { timeout: 5000 });
      expect(kestrel.sent('POST', /\/runs$/).length).toBe(starts + 1);
      expect(JSON.parse(kestrel.sent('POST', /\/runs$/).at(-1)!.body)).toMatchObject({ input: scenario.input });
      await within(started.container).findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    } finally {
      await kestrel.close();
    }
  });

  it('after a protocol error that followed run.completed, shows the error and the outcome received before it', async () => {
    const scenario = getScenario('event-after-completed');
    const run = createScenarioRun(scenario);
    const { container } = render(<RunView run={run} />);
    const root = container.firstElementChild as HTMLElement;
    expect(root.getAttribute('data-phase')).toBe('error');
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-error-kind')).toBe('protocol');
    expect(alert.textContent).toContain("after the run's outcome was received");
    // The real result is readable, clearly marked as received before the error, never as the current outcome.
    const received = screen.getByRole('region', { name: 'Received before the error: the run finished' });
    expect(received.getAttribute('data-kestrel-part')).toBe('received-outcome');
    expect(received.getAttribute('data-status')).toBe('COMPLETED');
    expect(received.textContent).toContain(run.getState().output?.assistantText ?? 'missing');
    expect(root.textContent).not.toMatch(/no (result|outcome)/i);
    expect(part(root, 'draft')).toBeNull();
    expect(part(root, 'assistant-text')).toBeNull();
    expect(part(root, 'outcome')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('The server sent an invalid event after the outcome');
    await expectNoAxeViolations(container);
  });

  it('says once, in the alert, that a truncated stream has no outcome; the draft stays marked incomplete', async () => {
    const { container } = render(<RunView run={createScenarioRun(getScenario('truncated'))} />);
    const root = container.firstElementChild as HTMLElement;
    const status = screen.getByRole('status');
    const alert = screen.getByRole('alert');
    const seen = (root.textContent ?? '').replace(status.textContent ?? '', '');
    expect(seen.match(/no (outcome|result)/gi)).toHaveLength(1);
    expect(alert.textContent).toMatch(/no outcome/i);
    expect(seen.match(/stream ended/gi)).toHaveLength(1);
    const draft = part(root, 'draft') as HTMLElement;
    expect(draft.getAttribute('data-state')).toBe('interrupted');
    expect(draft.querySelector('[data-kestrel-marker]')?.textContent).toBe('Incomplete text, not a result');
    expect(status.textContent).toBe('The stream broke before the run finished');
    await expectNoAxeViolations(container);
  });

  it('before a run starts, holds only the silent status region, then announces the start in it', () => {
    const run = createScenarioRun(getScenario('completed-text'), { upTo: 0 });
    const { container } = render(<RunView run={run} />);
    const root = container.firstElementChild as HTMLElement;
    expect(root.getAttribute('data-phase')).toBe('idle');
    expect(root.hasAttribute('data-kestrel-run')).toBe(true);
    // Nothing to see before a run: the theme drops the frame for data-phase="idle" (checked in Chromium by the Idle story).
    expect(root.textContent).toBe('');
    expect([...root.children].map((child) => child.getAttribute('role'))).toEqual(['status']);
    // The live region is there before the first announcement, so screen readers hear it.
    const status = screen.getByRole('status');
    act(() => run.source.step(1));
    expect(root.getAttribute('data-phase')).toBe('connecting');
    expect(screen.getByRole('status')).toBe(status);
    expect(status.textContent).toBe('Run started');
  });

  it('shows who cancelled and why', () => {
    const { container } = render(<RunView run={createScenarioRun(getScenario('cancelled'))} />);
    expect(part(container, 'outcome')?.getAttribute('data-cancelled-by')).toBe('user');
    const outcome = part(container, 'outcome');
    expect([...(outcome?.querySelectorAll('p') ?? [])].map((line) => line.textContent)).toEqual([
      'You cancelled the run',
      'Reason: Stopped by the user',
    ]);
    // Once said "Cancelled by you: Cancelled by the user": who, then the server's reason, joined by a colon.
    expect(outcome?.textContent).not.toMatch(/Cancelled by you:/);
    // What it said until it was stopped is not named as a whole answer (a screen reader reads the group's name).
    expect(screen.getByRole('group', { name: 'Assistant response, stopped before the end' }).textContent).toBe(
      'Tides are caused mainly by the Moon',
    );
  });

  it('shows reconnecting and detached as what they are, and follows it again', async () => {
    const user = userEvent.setup();
    const { container } = render(
      <RunView
        run={createScenarioRun(getScenario('dropped-mid-stream'), { until: (state) => state.phase === 'reconnecting' })}
      />,
    );
    expect(part(container, 'connection')?.textContent).toBe(
      'Connection interrupted (connection dropped). Reconnecting, attempt 1…',
    );
    expect(part(container, 'draft')?.getAttribute('data-state')).toBe('streaming');

    const detached = createScenarioRun(getScenario('completed-text'), {
      upTo: 10,
      then: [{ type: 'client/detached' }],
    });
    const resume = vi.spyOn(detached, 'resume');
    const view = render(<RunView run={detached} />);
    const root = view.container.firstElementChild as HTMLElement;
    expect(root.getAttribute('data-phase')).toBe('detached');
    expect(part(root, 'connection')?.textContent).toContain('No longer following this run');
    expect(part(root, 'draft')?.getAttribute('data-state')).toBe('detached');
    expect(within(root).queryByRole('alert')).toBeNull();
    await expectNoAxeViolations(view.container);
    await user.click(within(root).getByRole('button', { name: 'Follow again' }));
    expect(resume).toHaveBeenCalledWith('run_completed_text');
  });

  it('"Follow again" after detaching rebuilds the whole run: the draft from its first word, every event kept', async () => {
    const user = userEvent.setup();
    const kestrel = await startLoopbackKestrel();
    try {
      const scenario = getScenario('completed-text');
      const client = kestrel.client({ scenario: scenario.name, delayMs: 20 });
      let binding: RunBinding | null = null;
      function Followed() {
        const run = useRun({ client });
        binding = run;
        return <RunView run={run} />;
      }
      const { container } = render(<Followed />);
      act(() => binding!.start(scenario.input));
      await waitFor(() => expect(binding!.getState().draftText.length).toBeGreaterThan(10), { timeout: 5000 });
      const opening = binding!.getState().draftText;
      act(() => binding!.detach());
      await user.click(await screen.findByRole('button', { name: 'Follow again' }));
      await waitFor(() => expect(binding!.getState().phase).toBe('streaming'), { timeout: 5000 });
      // The draft shown while it streams again starts where the answer starts, not mid-sentence.
      const shown = () =>
        part(container as HTMLElement, 'draft')?.querySelector('[data-kestrel-text]')?.textContent ?? '';
      await waitFor(() => expect(shown().length).toBeGreaterThan(opening.length), { timeout: 5000 });
      expect(shown().startsWith(opening)).toBe(true);
      await waitFor(() => expect(binding!.getState().phase).toBe('settled'), { timeout: 5000 });
      // Nothing the server sent before the detach is lost from the run's events.
      expect(binding!.getState().events.at(0)?.type).toBe('run.started');
    } finally {
      await kestrel.close();
    }
  });

  it('moves focus to the prompt when the run starts waiting, and follows the answer to the next attempt', async () => {
    const user = userEvent.setup();
    const run = createScenarioRun(getScenario('waiting-approval'), { upTo: 8 });
    const { container } = render(
      <>
        <button type="button">elsewhere</button>
        <RunView run={run} />
      </>,
    );
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    act(() => {
      while (run.source.step()) {
        // to the WAITING settle
      }
    });
    const prompt = screen.getByRole('form', { name: 'Send the Q3 report to the board (6 recipients)?' });
    expect(document.activeElement).toBe(prompt);
    expect(screen.getByRole('status').textContent).toBe('Waiting for your answer');
    expect(part(container, 'assistant-text')?.textContent).toContain('I need your approval');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Sent the Q3 report to all 6 board members.')).toBeTruthy();
    expect(part(container, 'interaction')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Run finished');
  });

  const fields = {
    'a checkbox': <input type="checkbox" aria-label="field" defaultChecked />,
    'a select': (
      <select aria-label="field" defaultValue="b">
        <option value="a">a</option>
        <option value="b">b</option>
      </select>
    ),
    'an empty text field': <input type="text" aria-label="field" />,
    'a text field holding text': <input type="text" aria-label="field" defaultValue="a follow-up" />,
    'a textarea holding text': <textarea aria-label="field" defaultValue="a follow-up" />,
    'a read-only field holding a link': <input type="text" aria-label="field" readOnly defaultValue="https://x.test" />,
    'a date field holding a date': <input type="date" aria-label="field" defaultValue="2026-12-03" />,
  };
  it.each([
    ['a checkbox', true],
    ['a select', true],
    ['an empty text field', true],
    ['a text field holding text', false],
    ['a textarea holding text', false],
    ['a read-only field holding a link', true],
    ['a date field holding a date', false],
  ] as const)('when the run starts waiting with focus on %s, the prompt takes focus: %s', (what, takes) => {
    const run = createScenarioRun(getScenario('waiting-approval'), { upTo: 8 });
    render(
      <>
        {fields[what]}
        <RunView run={run} />
      </>,
    );
    const focused = screen.getByLabelText('field');
    focused.focus();
    act(() => {
      while (run.source.step()) {
        // to the WAITING settle
      }
    });
    const prompt = screen.getByRole('form', { name: 'Send the Q3 report to the board (6 recipients)?' });
    expect(document.activeElement).toBe(takes ? prompt : focused);
  });

  it("keeps focus in a text field inside a web component's shadow root while it holds text", () => {
    if (customElements.get('test-composer') === undefined) {
      customElements.define(
        'test-composer',
        class extends HTMLElement {
          constructor() {
            super();
            const field = document.createElement('textarea');
            field.value = 'a follow-up';
            this.attachShadow({ mode: 'open' }).append(field);
          }
        },
      );
    }
    const run = createScenarioRun(getScenario('waiting-approval'), { upTo: 8 });
    const { container } = render(<RunView run={run} />);
    const host = document.createElement('test-composer');
    container.append(host);
    const field = host.shadowRoot!.querySelector('textarea')!;
    field.focus();
    act(() => {
      while (run.source.step()) {
        // to the WAITING settle
      }
    });
    expect(host.shadowRoot!.activeElement).toBe(field);
    expect(document.activeElement).toBe(host);
  });

  it('passes its labels to every part', () => {
    render(
      <RunView
        run={createScenarioRun(getScenario('waiting-approval'))}
        labels={{ approve: 'Genehmigen', statusWaiting: 'Wartet auf Ihre Antwort' }}
      />,
    );
    expect(screen.getByRole('button', { name: 'Genehmigen' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Wartet auf Ihre Antwort');
  });
});
