import { createScenarioRun, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunCancel } from './run-cancel.js';

describe('RunCancel', () => {
  it('says so when the cancel request fails (the run goes on), and clears it when Stop is pressed again', async () => {
    const scenario = getScenario('completed-text');
    const base = createScenarioRun(scenario, { until: (state) => state.phase === 'streaming' });
    let refuse = true;
    let cancels = 0;
    const run = {
      ...base,
      cancel: async () => {
        cancels += 1;
        if (refuse) throw new Error('POST /v1/runs/run_1/cancel: HTTP 503 unavailable: Kestrel is restarting');
      },
    };
    const user = userEvent.setup();
    const { container } = render(<RunCancel run={run} />);
    await user.click(screen.getByRole('button', { name: 'Stop the run' }));
    expect(cancels).toBe(1);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The run could not be stopped and is still running. Try again.',
    );
    expect(screen.getByRole('button', { name: 'Stop the run' })).toBeTruthy();
    await expectNoAxeViolations(container);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Stop the run' }));
    expect(cancels).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves with the run: no stale alert once it has ended', async () => {
    const base = createScenarioRun(getScenario('completed-text'), { until: (state) => state.phase === 'streaming' });
    const run = { ...base, cancel: () => Promise.reject(new Error('offline')) };
    render(<RunCancel run={run} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stop the run' }));
    await screen.findByRole('alert');
    act(() => {
      while (base.source.step()) {
        // to the end
      }
    });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('RunCancel: the alert belongs to the run whose Stop failed', () => {
  /** A binding whose state can be swapped for another run's in one step, as a controller's start() does. */
  function switchableRun(cancel: () => Promise<void>) {
    const first = createScenarioRun(getScenario('completed-text'), { until: (state) => state.runId !== null });
    const second = createScenarioRun(getScenario('failed-retryable'), { until: (state) => state.runId !== null });
    let current = first;
    const listeners = new Set<() => void>();
    const run = {
      ...first,
      getState: () => current.getState(),
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      cancel,
    };
    const replace = () => {
      current = second;
      for (const listener of listeners) listener();
    };
    return { run, replace };
  }

  it('is not shown beside the next run’s Stop when a start replaced the run in one step', async () => {
    const { run, replace } = switchableRun(() => Promise.reject(new Error('offline')));
    render(<RunCancel run={run} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stop the run' }));
    await screen.findByRole('alert');
    act(replace);
    expect(screen.getByRole('button', { name: 'Stop the run' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says nothing when an earlier press fails after a later one went through', async () => {
    const pending: { reject: (error: Error) => void }[] = [];
    let presses = 0;
    const { run } = switchableRun(() => {
      presses += 1;
      return presses === 1 ? new Promise<void>((_, reject) => pending.push({ reject })) : Promise.resolve();
    });
    const user = userEvent.setup();
    render(<RunCancel run={run} />);
    await user.click(screen.getByRole('button', { name: 'Stop the run' }));
    await user.click(screen.getByRole('button', { name: 'Stop the run' }));
    await act(async () => pending[0]!.reject(new Error('503')));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
