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
