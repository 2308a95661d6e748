import { getScenario, createScenarioSource, invoiceSchema, scenarios } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { fixedSource, withFinishReason } from '../test-support/fixed-source.test-helper.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { ja } from '../locales/ja.js';
import { defaultLabels } from './default-labels.js';
import { announcementText, RunStatus, selectAnnouncementDetails } from './run-status.js';

describe('RunStatus', () => {
  it('is one polite live region that announces start, then finish, not each delta', async () => {
    const source = createScenarioSource(getScenario('completed-text'), { upTo: 6 });
    let renders = 0;
    const { container } = render(
      <Profiler id="status" onRender={() => (renders += 1)}>
        <RunStatus run={source} />
      </Profiler>,
    );
    const region = screen.getByRole('status');
    expect(region).toHaveProperty('ariaLive', 'polite');
    expect(region.textContent).toBe('Run started');
    expect(region.getAttribute('data-kestrel-part')).toBe('status');
    const before = renders;
    act(() => {
      source.step(5); // five more text and reasoning deltas
    });
    expect(renders).toBe(before);
    expect(source.getState().draftText.length).toBeGreaterThan(0);
    act(() => {
      while (source.step()) {
        // to the end
      }
    });
    expect(region.textContent).toBe('Run finished');
    expect(region.getAttribute('data-announcement')).toBe('finished');
    await expectNoAxeViolations(container);
  });

  it('says a payload that fails the schema with the outcome, and a valid one not at all', () => {
    const { rerender } = render(
      <RunStatus
        run={createScenarioSource(getScenario('completed-invalid-payload'), { payloadSchema: invoiceSchema })}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      "Run finished. Its structured result does not match this app's schema.",
    );
    rerender(
      <RunStatus run={createScenarioSource(getScenario('completed-payload'), { payloadSchema: invoiceSchema })} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Run finished');
  });

  it("an app's own statusFailed, from before statusFailedWithMessage, is never followed by English", () => {
    render(
      <RunStatus
        run={createScenarioSource(getScenario('failed-no-text'))}
        labels={{ statusFailed: 'Fehlgeschlagen', statusFinished: 'Fertig' }}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Fehlgeschlagen: This action is not permitted by policy.');
    const invalid = createScenarioSource(getScenario('completed-invalid-payload'), { payloadSchema: invoiceSchema });
    const details = selectAnnouncementDetails(invalid.getState());
    expect(announcementText('finished', details, { ...defaultLabels, statusFinished: 'Fertig' })).toBe('Fertig');
  });

  it('joins the finish note and an invalid payload as sentences of the language: a space in English, none in Japanese', () => {
    const details = { ...selectAnnouncementDetails(createScenarioSource(getScenario('max-tokens')).getState()) };
    expect(details.noteReason).not.toBeNull();
    const both = { ...details, payloadInvalid: true };
    expect(announcementText('finished-with-note', both, defaultLabels)).toBe(
      "Run finished. Stopped at the length limit: the answer may be incomplete. Its structured result does not match this app's schema.",
    );
    const japanese = announcementText('finished-with-note', both, { ...defaultLabels, ...ja });
    expect(japanese).toContain(ja.statusPayloadInvalid);
    expect(japanese).not.toMatch(/\s/);
    expect(announcementText('finished', { ...details, noteReason: null, payloadInvalid: true }, defaultLabels)).toBe(
      "Run finished. Its structured result does not match this app's schema.",
    );
  });

  /** The settled FAILED state of `failed-no-text`, narrowed: its output is the FAILED one. */
  function failedState() {
    const state = createScenarioSource(getScenario('failed-no-text')).getState();
    if (state.phase !== 'settled' || state.status !== 'FAILED') throw new Error('failed-no-text ends FAILED');
    return { state, output: state.output };
  }

  it('says a failure message as one line, blank as none', () => {
    const { state, output } = failedState();
    const withMessage = (message: string) =>
      announcementText(
        'failed',
        selectAnnouncementDetails({ ...state, output: { ...output, error: { ...output.error, message } } }),
        defaultLabels,
      );
    expect(withMessage('Quota\n  exceeded.\n')).toBe('Run failed: Quota exceeded.');
    expect(withMessage('   ')).toBe('Run failed');
    expect(withMessage(`${'x'.repeat(299)}🦅🦅`)).toBe(`Run failed: ${'x'.repeat(299)}🦅…`);
  });

  it('cuts a long failure message to 300 characters', () => {
    const long = 'x'.repeat(1_000);
    const { state, output } = failedState();
    const text = announcementText(
      'failed',
      selectAnnouncementDetails({ ...state, output: { ...output, error: { ...output.error, message: long } } }),
      defaultLabels,
    );
    expect(text).toBe(`Run failed: ${'x'.repeat(300)}…`);
  });

  it.each([
    ['waiting-approval', 'waiting', 'Waiting for your answer'],
    ['failed-retryable', 'failed', 'Run failed: The model provider is overloaded. Try again shortly.'],
    ['failed-no-text', 'failed', 'Run failed: This action is not permitted by policy.'],
    ['cancelled', 'cancelled', 'Run cancelled'],
    ['truncated', 'stream-ended', 'The stream broke before the run finished'],
    ['malformed-event', 'protocol-error', 'The server sent an invalid event'],
    ['event-after-completed', 'invalid-after-outcome', 'The server sent an invalid event after the outcome'],
    ['max-tokens', 'finished-with-note', 'Run finished. Stopped at the length limit: the answer may be incomplete.'],
    [
      'completed-unknown-finish',
      'finished-with-note',
      'Run finished. The agent\'s last turn ended with reason "refusal".',
    ],
    ['subagent-turn-end', 'finished', 'Run finished'],
  ])('announces %s as %s: "%s"', async (name, announcement, text) => {
    const { container } = render(<RunStatus run={createScenarioSource(getScenario(name))} />);
    expect(screen.getByRole('status').textContent).toBe(text);
    expect(screen.getByRole('status').getAttribute('data-announcement')).toBe(announcement);
    await expectNoAxeViolations(container);
  });

  it.each([
    [
      { type: 'client/connection-lost', message: 'socket hang up' } as const,
      'connection-lost',
      'Connection lost: no result received',
    ],
    [
      { type: 'client/timed-out', message: 'No response headers', timeoutMs: 30_000 } as const,
      'timed-out',
      'No answer in time: no result received',
    ],
    [
      { type: 'client/http-error', status: 502, code: 'bad_gateway', message: 'Bad gateway' } as const,
      'request-failed',
      'Request failed: no result received',
    ],
    [{ type: 'client/detached' } as const, 'detached', 'Stopped following the run'],
  ])('announces %o as %s, never as an outcome', (action, announcement, text) => {
    render(<RunStatus run={createScenarioSource(getScenario('completed-text'), { upTo: 6, then: [action] })} />);
    expect(screen.getByRole('status').getAttribute('data-announcement')).toBe(announcement);
    expect(screen.getByRole('status').textContent).toBe(text);
  });

  it('announces a start request that got no answer at all as unreachable, not as a lost connection', () => {
    const unanswered = { upTo: 1, then: [{ type: 'client/connection-lost', message: 'fetch failed' }] } as const;
    render(<RunStatus run={createScenarioSource(getScenario('completed-text'), unanswered)} />);
    expect(screen.getByRole('status').getAttribute('data-announcement')).toBe('unreachable');
    expect(screen.getByRole('status').textContent).toBe('Could not reach the server');
  });

  it.each(scenarios.filter((scenario) => scenario.expected.phase === 'error').map((scenario) => scenario.name))(
    'never announces the broken run %s like a FAILED outcome, and keeps it short',
    (name) => {
      render(<RunStatus run={createScenarioSource(getScenario(name))} />);
      const region = screen.getByRole('status');
      expect(region.getAttribute('data-announcement')).not.toBe('failed');
      expect(region.textContent).not.toBe(defaultLabels.statusFailed);
      expect(region.textContent?.length).toBeGreaterThan(0);
      expect(region.textContent?.length).toBeLessThanOrEqual(60);
    },
  );

  it('says a run was cut off once, with its outcome, never per delta', () => {
    const source = createScenarioSource(getScenario('max-tokens'), { upTo: 0 });
    render(<RunStatus run={source} />);
    const region = screen.getByRole('status');
    const heard = [region.textContent];
    let more = true;
    while (more) {
      act(() => {
        more = source.step();
      });
      if (heard.at(-1) !== region.textContent) heard.push(region.textContent);
    }
    expect(heard).toEqual([
      '',
      'Run started',
      'Run finished. Stopped at the length limit: the answer may be incomplete.',
    ]);
  });

  it('says only "Run finished" when the finish reason is not known here (undefined)', () => {
    const unknown = withFinishReason(createScenarioSource(getScenario('max-tokens')).getState(), undefined);
    render(<RunStatus run={fixedSource(unknown)} />);
    expect(screen.getByRole('status').textContent).toBe('Run finished');
    expect(screen.getByRole('status').getAttribute('data-announcement')).toBe('finished');
  });

  it('takes translated labels for the finish note', () => {
    render(
      <RunStatus
        run={createScenarioSource(getScenario('max-tokens'))}
        labels={{
          statusFinishedWithNote: (note) => `Fertig. ${note}`,
          finishNotice: () => 'Bei der Längengrenze abgebrochen.',
        }}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Fertig. Bei der Längengrenze abgebrochen.');
  });

  it('takes translated labels for what broke', () => {
    render(
      <RunStatus
        run={createScenarioSource(getScenario('truncated'))}
        labels={{ statusStreamEnded: 'Der Stream brach ab' }}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Der Stream brach ab');
  });

  it('is present and empty before a run, and takes translated labels and a forwarded ref', () => {
    const source = createScenarioSource(getScenario('completed-text'), { upTo: 0 });
    const ref = { current: null as HTMLDivElement | null };
    render(<RunStatus run={source} ref={ref} className="sr" labels={{ statusStarted: 'Gestartet' }} />);
    expect(ref.current?.textContent).toBe('');
    expect(ref.current?.className).toBe('sr');
    act(() => {
      source.step(2);
    });
    expect(ref.current?.textContent).toBe('Gestartet');
  });
});
