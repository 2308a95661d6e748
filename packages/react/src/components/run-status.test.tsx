import { getScenario, createScenarioSource } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe-check.js';
import { RunStatus } from './run-status.js';

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

  it.each([
    ['waiting-approval', 'Waiting for your answer'],
    ['failed-retryable', 'Run failed'],
    ['truncated', 'Run failed'],
    ['cancelled', 'Run finished'],
  ])('announces %s as "%s"', async (name, text) => {
    const { container } = render(<RunStatus run={createScenarioSource(getScenario(name))} />);
    expect(screen.getByRole('status').textContent).toBe(text);
    await expectNoAxeViolations(container);
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
