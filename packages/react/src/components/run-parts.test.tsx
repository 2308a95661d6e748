import { createScenarioRun, getScenario } from '@kestrel/testing';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useRunSelector } from '../use-run-selector.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { useRunContext } from './run-context.js';
import { Run } from './run-parts.js';

const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[data-kestrel-part="${name}"]`);

describe('Run.Root and its parts', () => {
  it('gives every part the root run, so no part needs a run prop', async () => {
    const { container } = render(
      <Run.Root run={createScenarioRun(getScenario('failed-retryable'))} className="mine">
        <Run.Status />
        <Run.Outcome />
        <Run.Text />
      </Run.Root>,
    );
    const root = container.firstElementChild as HTMLElement;
    expect(root.tagName).toBe('SECTION');
    expect(root.className).toBe('mine');
    expect([root.getAttribute('data-phase'), root.getAttribute('data-status')]).toEqual(['settled', 'FAILED']);
    expect(screen.getByRole('status').textContent).toBe(
      'Run failed: The model provider is overloaded. Try again shortly.',
    );
    expect(part(root, 'outcome')?.textContent).toContain('provider_overloaded');
    expect(part(root, 'assistant-text')?.textContent).toContain('model provider is overloaded');
    await expectNoAxeViolations(container);
  });

  it('throws an error naming the part when it has neither a root nor a run prop', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Run.Outcome />)).toThrow(
      '<Run.Outcome> needs a run: render it inside <Run.Root run={run}> or pass run={run}.',
    );
    expect(() => render(<Run.Text />)).toThrow(/<Run.Text> needs a run/);
    vi.restoreAllMocks();
  });

  it('lets a part used alone take its own run, and an app part read the root run with useRunContext', () => {
    function Phase() {
      return <p data-testid="phase">{useRunSelector(useRunContext(), (state) => state.phase)}</p>;
    }
    render(
      <>
        <Run.Outcome run={createScenarioRun(getScenario('cancelled'))} />
        <Run.Root run={createScenarioRun(getScenario('completed-text'))}>
          <Phase />
        </Run.Root>
      </>,
    );
    expect(part(document, 'outcome')?.getAttribute('data-status')).toBe('CANCELLED');
    expect(screen.getByTestId('phase').textContent).toBe('settled');
  });

  it('renders the root as the app element with asChild', () => {
    render(
      <Run.Root asChild run={createScenarioRun(getScenario('completed-text'))}>
        <article className="card">
          <Run.Text />
        </article>
      </Run.Root>,
    );
    const article = document.querySelector('article') as HTMLElement;
    expect(article.getAttribute('data-kestrel-run')).toBe('');
    expect(article.getAttribute('data-phase')).toBe('settled');
    expect(article.className).toBe('card');
    expect(document.querySelector('section')).toBeNull();
  });
});

describe('Run.Outcome', () => {
  it('shows FAILED with its message, code and the retry part, and CANCELLED with who and why', async () => {
    const { container } = render(<Run.Outcome run={createScenarioRun(getScenario('failed-retryable'))} />);
    const failed = part(container, 'outcome') as HTMLElement;
    expect(failed.getAttribute('data-status')).toBe('FAILED');
    expect(failed.getAttribute('data-retryable')).toBe('true');
    expect(within(failed).getByRole('button', { name: 'Try again' }).getAttribute('data-kestrel-action')).toBe('retry');
    await expectNoAxeViolations(container);
    const cancelled = render(<Run.Outcome run={createScenarioRun(getScenario('cancelled'))} />);
    expect(part(cancelled.container, 'outcome')?.getAttribute('data-cancelled-by')).toBe('user');
    await expectNoAxeViolations(cancelled.container);
  });

  it("puts the app's own retry button in the kit's place, or none", async () => {
    const run = createScenarioRun(getScenario('failed-retryable'));
    const retry = vi.spyOn(run, 'retry');
    const { container, rerender } = render(
      <Run.Root run={run}>
        <Run.Outcome
          retry={
            <Run.Retry asChild>
              <button type="button" className="mine">
                Retry now
              </button>
            </Run.Retry>
          }
        />
      </Run.Root>,
    );
    const outcome = part(container, 'outcome') as HTMLElement;
    expect(
      within(outcome)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Retry now']);
    await userEvent.setup().click(within(outcome).getByRole('button', { name: 'Retry now' }));
    expect(retry).toHaveBeenCalledTimes(1);
    rerender(
      <Run.Root run={run}>
        <Run.Outcome retry={null} />
      </Run.Root>,
    );
    expect(within(part(container, 'outcome') as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('renders nothing for COMPLETED, WAITING or a run that has not settled', () => {
    for (const name of ['completed-text', 'waiting-approval', 'truncated']) {
      const { container, unmount } = render(<Run.Outcome run={createScenarioRun(getScenario(name))} />);
      expect(container.innerHTML).toBe('');
      unmount();
    }
  });
});

describe('Run.Connection', () => {
  it('says connecting, reconnecting and detached, and follows a detached run again', async () => {
    const user = userEvent.setup();
    const connecting = render(<Run.Connection run={createScenarioRun(getScenario('completed-text'), { upTo: 1 })} />);
    expect(part(connecting.container, 'connection')?.getAttribute('data-state')).toBe('connecting');
    expect(part(connecting.container, 'connection')?.textContent).toBe('Connecting…');
    connecting.unmount();
    const reconnecting = render(
      <Run.Connection
        run={createScenarioRun(getScenario('dropped-mid-stream'), { until: (state) => state.phase === 'reconnecting' })}
      />,
    );
    expect(part(reconnecting.container, 'connection')?.getAttribute('data-state')).toBe('reconnecting');
    reconnecting.unmount();
    const run = createScenarioRun(getScenario('completed-text'), { upTo: 10, then: [{ type: 'client/detached' }] });
    const resume = vi.spyOn(run, 'resume');
    const { container } = render(<Run.Connection run={run} />);
    expect(part(container, 'connection')?.getAttribute('data-state')).toBe('detached');
    await expectNoAxeViolations(container);
    const follow = screen.getByRole('button', { name: 'Follow again' });
    expect(follow.getAttribute('data-kestrel-action')).toBe('follow-again');
    await user.click(follow);
    expect(resume).toHaveBeenCalledWith('run_completed_text');
  });

  it('renders nothing while connected', () => {
    const { container } = render(
      <Run.Connection
        run={createScenarioRun(getScenario('completed-text'), { until: (state) => state.phase === 'streaming' })}
      />,
    );
    expect(container.innerHTML).toBe('');
  });
});

describe('Run.Cancel and Run.Retry with asChild and composed props', () => {
  const streaming = () =>
    createScenarioRun(getScenario('completed-text'), { until: (state) => state.phase === 'streaming' });

  it('merge onto the app element: classes joined, the app handler first, refs composed', async () => {
    const user = userEvent.setup();
    const run = streaming();
    const cancel = vi.spyOn(run, 'cancel');
    const order: string[] = [];
    cancel.mockImplementation(async () => {
      order.push('kit');
    });
    const ref = createRef<HTMLButtonElement>();
    const childRef = createRef<HTMLButtonElement>();
    const { container } = render(
      <Run.Cancel run={run} asChild className="from-part" ref={ref} onClick={() => order.push('app')}>
        <button type="button" className="from-app" ref={childRef}>
          Stop now
        </button>
      </Run.Cancel>,
    );
    const button = screen.getByRole('button', { name: 'Stop now' });
    expect(button.className.split(' ').sort()).toEqual(['from-app', 'from-part']);
    expect(button.getAttribute('data-kestrel-action')).toBe('cancel');
    expect(ref.current).toBe(button);
    expect(childRef.current).toBe(button);
    await user.click(button);
    expect(order).toEqual(['app', 'kit']);
    await expectNoAxeViolations(container);
  });

  it("give the app's button type=button, so a form around it is not submitted, unless it sets its own type", async () => {
    const user = userEvent.setup();
    const run = streaming();
    const cancel = vi.spyOn(run, 'cancel');
    const submit = vi.fn((event: SubmitEvent) => event.preventDefault());
    const { container } = render(
      <form>
        <Run.Cancel run={run} asChild>
          <button>Stop</button>
        </Run.Cancel>
        <Run.Cancel run={run} asChild>
          <button type="submit">Stop and send</button>
        </Run.Cancel>
      </form>,
    );
    container.querySelector('form')!.addEventListener('submit', submit);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(submit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop and send' }));
    expect(cancel).toHaveBeenCalledTimes(2);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it("let the app's handler preventDefault the kit's action", async () => {
    const user = userEvent.setup();
    const run = createScenarioRun(getScenario('failed-retryable'));
    const retry = vi.spyOn(run, 'retry');
    render(<Run.Retry run={run} onClick={(event) => event.preventDefault()} />);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).not.toHaveBeenCalled();
  });

  it("let the app element's own handler preventDefault the kit's action too", async () => {
    const user = userEvent.setup();
    const run = streaming();
    const cancel = vi.spyOn(run, 'cancel');
    render(
      <Run.Cancel run={run} asChild>
        <button type="button" onClick={(event) => event.preventDefault()}>
          Stop?
        </button>
      </Run.Cancel>,
    );
    await user.click(screen.getByRole('button', { name: 'Stop?' }));
    expect(cancel).not.toHaveBeenCalled();
  });

  it('show Cancel only while the run is live, and Retry only when retry would act', () => {
    const live = render(<Run.Cancel run={streaming()}>Halt</Run.Cancel>);
    expect(screen.getByRole('button', { name: 'Halt' }).getAttribute('type')).toBe('button');
    live.unmount();
    const settled = render(<Run.Cancel run={createScenarioRun(getScenario('completed-text'))} />);
    expect(settled.container.innerHTML).toBe('');
    settled.unmount();
    const resumed = render(<Run.Retry run={createScenarioRun(getScenario('failed-retryable'), { resumed: true })} />);
    expect(resumed.container.innerHTML).toBe('');
  });
});

describe('Run.Status and Run.FinishNotice with asChild', () => {
  it('put their attributes and words on the app element', async () => {
    const { container } = render(
      <Run.Root run={createScenarioRun(getScenario('max-tokens'))}>
        <Run.Status asChild>
          <span className="sr-only" />
        </Run.Status>
        <Run.FinishNotice asChild>
          <aside className="note" />
        </Run.FinishNotice>
      </Run.Root>,
    );
    const status = screen.getByRole('status');
    expect(status.tagName).toBe('SPAN');
    expect(status.className).toBe('sr-only');
    expect(status.textContent).toBe('Run finished. Stopped at the length limit: the answer may be incomplete.');
    const note = screen.getByRole('note');
    expect(note.tagName).toBe('ASIDE');
    expect(note.getAttribute('data-kind')).toBe('max-tokens');
    expect(note.textContent).toBe('Stopped at the length limit: the answer may be incomplete.');
    await expectNoAxeViolations(container);
  });
});

describe('Run.Activity open state', () => {
  it('is controllable with open and onOpenChange', async () => {
    const user = userEvent.setup();
    const changes: boolean[] = [];
    function Controlled({ children }: { children?: ReactNode }) {
      const [open, setOpen] = useState(false);
      return (
        <Run.Root run={createScenarioRun(getScenario('tool-error'))}>
          <button type="button" onClick={() => setOpen(true)}>
            Show the work
          </button>
          <Run.Activity
            open={open}
            onOpenChange={(next) => {
              changes.push(next);
              setOpen(next);
            }}
          />
          {children}
        </Run.Root>
      );
    }
    const { container } = render(<Controlled />);
    const activity = part(container, 'activity') as HTMLElement;
    expect(activity.getAttribute('data-state')).toBe('collapsed');
    await user.click(screen.getByRole('button', { name: 'Show the work' }));
    expect(activity.getAttribute('data-state')).toBe('expanded');
    expect(screen.getByText('weather.forecast')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Activity/ }));
    expect(changes).toEqual([false]);
    expect(activity.getAttribute('data-state')).toBe('collapsed');
    await expectNoAxeViolations(container);
  });

  it('stays as the app says when controlled and the app ignores the change', async () => {
    const user = userEvent.setup();
    const onOpenChange = vi.fn();
    const { container } = render(
      <Run.Activity run={createScenarioRun(getScenario('tool-error'))} open={false} onOpenChange={onOpenChange} />,
    );
    await user.click(screen.getByRole('button', { name: /Activity/ }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(part(container, 'activity')?.getAttribute('data-state')).toBe('collapsed');
  });
});

/** Live regions that would speak now: alerts, and any region whose aria-live is not off. */
function speakingRegions(container: HTMLElement): HTMLElement[] {
  return [
    ...container.querySelectorAll<HTMLElement>('[role="alert"], [role="status"], [role="log"], [aria-live]'),
  ].filter((element) => element.getAttribute('aria-live') !== 'off' && (element.textContent ?? '') !== '');
}

describe('announcements', () => {
  it('say a connection error once: in the alert, while the status keeps the sentence silent', async () => {
    const { container } = render(
      <Run.Root run={createScenarioRun(getScenario('truncated'))}>
        <Run.Status />
        <Run.Text />
        <Run.Error />
      </Run.Root>,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('The stream broke before the run finished');
    expect(status.getAttribute('aria-live')).toBe('off');
    expect(speakingRegions(container).map((region) => region.getAttribute('role'))).toEqual(['alert']);
    await expectNoAxeViolations(container);
  });

  it("say a connection error once also when the parts are given the root's run explicitly", () => {
    const run = createScenarioRun(getScenario('truncated'));
    const { container } = render(
      <Run.Root run={run}>
        <Run.Status run={run} />
        <Run.Error run={run} />
      </Run.Root>,
    );
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('off');
    expect(speakingRegions(container).map((region) => region.getAttribute('role'))).toEqual(['alert']);
  });

  it('say a connection error in the status when no alert is shown beside it', async () => {
    const { container } = render(
      <Run.Root run={createScenarioRun(getScenario('truncated'))}>
        <Run.Status />
      </Run.Root>,
    );
    // The status looks for an alert that said it once the commit is done, in the same task (before the browser reads it).
    await Promise.resolve();
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('polite');
    expect(speakingRegions(container)).toHaveLength(1);
  });

  it('say each outcome once, and the final text once, never the draft', () => {
    const run = createScenarioRun(getScenario('completed-text'), { until: (state) => state.draftText.length > 20 });
    const { container } = render(
      <Run.Root run={run}>
        <Run.Status />
        <Run.Text />
        <Run.Error />
      </Run.Root>,
    );
    // Streaming: only "Run started" speaks; the draft is in no live region.
    expect(speakingRegions(container).map((region) => region.textContent)).toEqual(['Run started']);
    act(() => {
      while (run.source.step()) {
        // to run.completed
      }
    });
    // The status says the outcome; the hidden region beside the text says the answer, as plain text.
    const speaking = speakingRegions(container);
    expect(speaking.map((region) => region.textContent)).toEqual([
      'Run finished',
      run.getState().output?.assistantText,
    ]);
    expect(speaking[1]?.nextElementSibling?.getAttribute('data-kestrel-part')).toBe('assistant-text');
  });
});
