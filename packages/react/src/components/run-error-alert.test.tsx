import { createScenarioRun, createScenarioSource, getScenario, type ScenarioRunOptions } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunErrorAlert } from './run-error-alert.js';

function errorRun(name: string, options: ScenarioRunOptions = {}) {
  const run = createScenarioRun(getScenario(name), options);
  vi.spyOn(run, 'retry').mockImplementation(() => undefined);
  return run;
}

describe('RunErrorAlert', () => {
  it('says a truncated stream has no outcome, as an alert with a reconnect action', async () => {
    const user = userEvent.setup();
    const run = errorRun('truncated');
    const { container } = render(<RunErrorAlert run={run} />);
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-kestrel-part')).toBe('error');
    expect(alert.getAttribute('data-error-kind')).toBe('truncated');
    expect(alert.textContent).toContain('The stream ended before the run finished');
    expect(alert.textContent).toMatch(/No outcome was received; the last event was seq \d+\./);
    // Said once: the reducer's own wording of the same fact is not repeated under it.
    expect(alert.textContent?.match(/no outcome/gi)).toHaveLength(1);
    await expectNoAxeViolations(container);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(run.retry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button').textContent).toBe('Reconnect');
    // The public action name says what the button does: resume, not start again.
    expect(screen.getByRole('button').getAttribute('data-kestrel-action')).toBe('reconnect');
  });

  it('names the seq and field of a protocol error, and offers no retry that would only repeat it', async () => {
    const { container } = render(<RunErrorAlert run={errorRun('malformed-event')} />);
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-error-kind')).toBe('protocol');
    const state = createScenarioSource(getScenario('malformed-event')).getState();
    expect(alert.textContent).toContain(`seq ${state.error?.kind === 'protocol' ? state.error.seq : 'x'}`);
    expect(alert.textContent).toContain('field callId');
    expect(screen.queryByRole('button')).toBeNull();
    await expectNoAxeViolations(container);
  });

  it.each([
    [{ type: 'client/connection-lost', message: 'socket hang up' } as const, 'Connection lost', 'Reconnect'],
    [
      { type: 'client/timed-out', message: 'No response headers', timeoutMs: 30_000 } as const,
      'did not answer in time',
      'Reconnect',
    ],
    [
      { type: 'client/http-error', status: 502, code: 'bad_gateway', message: 'Bad gateway' } as const,
      'HTTP 502',
      'Reconnect',
    ],
  ])('shows %o as what broke', async (action, title, button) => {
    const run = errorRun('completed-text', { upTo: 6, then: [action] });
    const { container } = render(<RunErrorAlert run={run} />);
    expect(screen.getByRole('alert').textContent).toContain(title);
    expect(screen.getByRole('button').textContent).toBe(button);
    await expectNoAxeViolations(container);
  });

  it('says the server could not be reached when the start request got no answer at all, and offers a retry', async () => {
    const unanswered = { upTo: 1, then: [{ type: 'client/connection-lost', message: 'fetch failed' }] } as const;
    const { container } = render(<RunErrorAlert run={errorRun('completed-text', unanswered)} />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('[data-kestrel-heading]')?.textContent).toBe('Could not reach the server');
    expect(alert.textContent).not.toMatch(/connection lost/i);
    expect(screen.getByRole('button').textContent).toBe('Retry');
    await expectNoAxeViolations(container);
  });

  it('offers no action when the run has no input to start again with (a failed start on a resumed binding)', async () => {
    const failedStart = {
      upTo: 1,
      then: [{ type: 'client/http-error', status: 503, code: 'unavailable', message: 'Kestrel is unavailable' }],
    } as const;
    const started = render(<RunErrorAlert run={errorRun('completed-text', failedStart)} />);
    expect(screen.getByRole('button').textContent).toBe('Retry');
    started.unmount();
    const { container } = render(<RunErrorAlert run={errorRun('completed-text', { ...failedStart, resumed: true })} />);
    expect(screen.getByRole('alert').textContent).toContain('HTTP 503');
    expect(screen.queryByRole('button')).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('renders nothing for a run outcome, even FAILED', () => {
    const { container } = render(<RunErrorAlert run={errorRun('failed-retryable')} />);
    expect(container.innerHTML).toBe('');
  });
});
