import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Run } from './run-parts.js';
import { COPY_FEEDBACK_MS, RunCopy, useCopyAnswer } from './run-copy.js';
import { RunView } from './run-view.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const copyButton = () => screen.queryByRole('button', { name: /copy/i });

describe('Run.Copy', () => {
  it('appears once the run settles as COMPLETED and copies the final answer, never the draft', async () => {
    const user = userEvent.setup();
    const scenario = getScenario('completed-text');
    const source = createScenarioSource(scenario, { until: (state) => state.draftText.length > 5 });
    render(
      <RunView run={{ ...createScenarioRun(scenario), getState: source.getState, subscribe: source.subscribe }} />,
    );
    expect(copyButton()).toBeNull(); // a draft is not the answer
    act(() => {
      while (source.step()) {
        // to run.completed
      }
    });
    const state = source.getState();
    const answer = state.output?.status === 'COMPLETED' ? state.output.assistantText : '';
    expect(answer.length).toBeGreaterThan(0);
    await user.click(copyButton()!);
    expect(await navigator.clipboard.readText()).toBe(answer);
    const button = screen.getByRole('button', { name: 'Copied' });
    expect(button.getAttribute('data-kestrel-action')).toBe('copy');
    expect(button.getAttribute('data-state')).toBe('copied');
  });

  it('says it could not copy when the page has no clipboard, then offers to copy again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    render(<RunCopy run={createScenarioSource(getScenario('completed-text'))} />);
    await user.click(screen.getByRole('button', { name: 'Copy answer' }));
    const failed = await screen.findByRole('button', { name: 'Could not copy' });
    expect(failed.getAttribute('data-state')).toBe('failed');
    await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS));
    expect(screen.getByRole('button', { name: 'Copy answer' }).getAttribute('data-state')).toBe('idle');
  });

  it.each(['failed-retryable', 'cancelled', 'waiting-approval'])('is not offered for a %s run', (name) => {
    render(<RunCopy run={createScenarioSource(getScenario(name))} />);
    expect(copyButton()).toBeNull();
  });

  it("gives a button of the app's own the answer, the feedback and copy() (useCopyAnswer)", async () => {
    const user = userEvent.setup();
    function IconCopy() {
      const { answer, state, copy } = useCopyAnswer();
      if (answer === null) return null;
      return (
        <button type="button" aria-label={state === 'copied' ? 'Copied to the clipboard' : 'Copy'} onClick={copy}>
          ⧉
        </button>
      );
    }
    const scenario = getScenario('completed-text');
    render(
      <Run.Root run={createScenarioRun(scenario)}>
        <IconCopy />
      </Run.Root>,
    );
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(scenario.expected.assistantText);
    expect(screen.getByRole('button', { name: 'Copied to the clipboard' })).toBeTruthy();
  });
});
