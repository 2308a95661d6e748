import { createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunActivity } from './run-activity.js';

describe('RunActivity', () => {
  it('is collapsed by default and opens and closes from the keyboard', async () => {
    const user = userEvent.setup();
    const { container } = render(<RunActivity run={createScenarioSource(getScenario('tool-error'))} />);
    const toggle = screen.getByRole('button', { name: /Activity/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('weather.forecast')).toBeNull();
    await expectNoAxeViolations(container);

    await user.tab();
    expect(document.activeElement).toBe(toggle);
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(container.firstElementChild?.getAttribute('data-state')).toBe('expanded');
    const failed = screen.getByText('weather.forecast').closest('li');
    expect(failed?.getAttribute('data-tool-status')).toBe('failed');
    expect(failed?.textContent).toContain('failed');
    expect(screen.getByText('cache.lookup').closest('li')?.getAttribute('data-tool-status')).toBe('succeeded');
    expect(
      screen
        .getByText(/timed out after 5s/)
        .closest('li')
        ?.getAttribute('data-log-level'),
    ).toBe('warn');
    expect(screen.getByText(/Reading the request/)).toBeTruthy();
    // Settled: its last progress is a step it reached, not a bar stuck short of the end.
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Last step: Writing the answer')).toBeTruthy();
    await expectNoAxeViolations(container);

    await user.keyboard(' ');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it("summarises a settled run's tools without its last progress, which is no longer news", () => {
    const streaming = createScenarioSource(getScenario('completed-payload'), {
      until: (state) => state.progress?.label === 'Extracting fields',
    });
    const { unmount } = render(<RunActivity run={streaming} />);
    expect(screen.getByRole('button', { name: /Activity/ }).textContent).toBe(
      'Activity (1 tool call · Extracting fields 80%)',
    );
    unmount();
    render(<RunActivity run={createScenarioSource(getScenario('completed-payload'))} />);
    expect(screen.getByRole('button', { name: /Activity/ }).textContent).toBe('Activity (1 tool call)');
  });

  it('shows progress as a bar while the run is followed, and its last step without one once it settles', () => {
    const source = createScenarioSource(getScenario('completed-payload'), {
      until: (state) => state.progress?.label === 'Extracting fields',
    });
    render(<RunActivity run={source} defaultOpen />);
    expect(screen.getByRole('progressbar', { name: 'Extracting fields' }).getAttribute('value')).toBe('0.8');
    expect(screen.getByText('Progress: Extracting fields')).toBeTruthy();
    act(() => {
      while (source.step()) {
        // to the end
      }
    });
    expect(source.getState().phase).toBe('settled');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(`Last step: ${source.getState().progress?.label}`)).toBeTruthy();
  });

  it('shows running tools while streaming and does not re-render on text deltas', () => {
    const source = createScenarioSource(getScenario('completed-payload'), {
      until: (state) => state.tools.length === 1,
    });
    let renders = 0;
    render(
      <Profiler id="activity" onRender={() => (renders += 1)}>
        <RunActivity run={source} defaultOpen />
      </Profiler>,
    );
    expect(screen.getByText('ocr.extract').closest('li')?.getAttribute('data-tool-status')).toBe('running');
    act(() => {
      source.step(3); // progress, tool completed, progress
    });
    expect(screen.getByText('ocr.extract').closest('li')?.getAttribute('data-tool-status')).toBe('succeeded');
    const before = renders;
    act(() => {
      source.step(5); // text deltas only
    });
    expect(source.getState().draftText).not.toBe('');
    expect(renders).toBe(before);
  });

  it('collapsed, does not re-render on reasoning deltas it is not showing, and shows all of it once opened', async () => {
    const user = userEvent.setup();
    const source = createScenarioSource(getScenario('completed-payload'), { until: (state) => state.reasoning !== '' });
    let renders = 0;
    render(
      <Profiler id="activity" onRender={() => (renders += 1)}>
        <RunActivity run={source} />
      </Profiler>,
    );
    const before = renders;
    act(() => {
      source.step(); // the second reasoning delta
    });
    expect(source.getState().reasoning).toBe('Reading the request. Planning the answer.');
    expect(renders).toBe(before);
    await user.click(screen.getByRole('button', { name: /Activity/ }));
    expect(screen.getByText('Reading the request. Planning the answer.')).toBeTruthy();
  });

  it('renders nothing when there was no activity', () => {
    const { container } = render(<RunActivity run={createScenarioSource(getScenario('failed-no-text'))} />);
    expect(container.innerHTML).toBe('');
  });
});
