import type { RunBinding, RunClient } from '@kestrel/core';
import { createScenarioRun, getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect, useRef, useState } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { useSession } from '../use-session.js';
import { Run } from './run-parts.js';
import { RunView } from './run-view.js';
import { SessionView } from './session/session-view.js';

/*
 * A button or question of the kit that goes away while it has focus (it did its job) must not drop a keyboard or
 * screen reader user at the top of the page: focus stays in the run view. Against a real (loopback) Kestrel, so the
 * button goes because the run really moved on.
 */

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const runRoot = () => document.querySelector<HTMLElement>('[data-kestrel-run]')!;

describeModes('focus when a focused part of the view goes away', ({ options }) => {
  function show(client: RunClient, input: string) {
    const into: { run: RunBinding | null } = { run: null };
    function Started() {
      const run = useRun({ client });
      into.run = run;
      return (
        <main>
          <RunView run={run} />
        </main>
      );
    }
    render(<Started />, options);
    act(() => into.run!.start(input));
    return into;
  }

  it('Stop: once the run settles CANCELLED, focus is on the run view, not the page', async () => {
    // 200 ms before each event: the answer takes about 5 s, so the click lands while it streams even on a loaded
    // machine (at 40 ms it could settle COMPLETED first, and the test failed under load).
    show(kestrel.client({ scenario: 'completed-text', delayMs: 200 }), 'Summarise');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Stop the run' }, { timeout: 5_000 }));
    await waitFor(() => expect(runRoot().dataset.status).toBe('CANCELLED'), { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: 'Stop the run' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(runRoot()), { timeout: 5_000 });
    // Reachable from script only, and only while it holds that focus: never a tab stop, nor focused by a click later.
    expect(runRoot().tabIndex).toBe(-1);
    // The window losing focus (another tab) keeps it, so coming back finds focus where it was.
    runRoot().dispatchEvent(new FocusEvent('blur', { relatedTarget: null }));
    runRoot().dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: null }));
    expect(runRoot().getAttribute('tabindex')).toBe('-1');
    // Focus moving on to another element gives the view back its own tab order (Chromium: the story's play tabs).
    const next = document.createElement('button');
    document.body.append(next);
    runRoot().dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: next }));
    next.remove();
    expect(runRoot().hasAttribute('tabindex')).toBe(false);
  });

  it('leaves focus alone when the part is not really going away: autoFocus on Stop survives StrictMode', () => {
    const run = createScenarioRun(getScenario('completed-text'), { until: (state) => state.phase === 'streaming' });
    render(
      <Run.Root run={run}>
        <Run.Cancel autoFocus />
      </Run.Root>,
      options,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stop the run' }));
  });

  it('leaves focus alone when the app moved it: the whole view replaced by a heading that takes focus', async () => {
    const run = createScenarioRun(getScenario('completed-text'), { until: (state) => state.phase === 'streaming' });
    let hide = () => undefined as void;
    function Heading() {
      const heading = useRef<HTMLHeadingElement>(null);
      useLayoutEffect(() => heading.current?.focus(), []);
      return (
        <h2 tabIndex={-1} ref={heading}>
          Done
        </h2>
      );
    }
    function App() {
      const [shown, setShown] = useState(true);
      hide = () => setShown(false);
      return shown ? <RunView run={run} /> : <Heading />;
    }
    render(<App />, options);
    screen.getByRole('button', { name: 'Stop the run' }).focus();
    act(() => hide());
    await act(() => Promise.resolve());
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Done' }));
  });

  it('Try again: while the run starts over, focus is on the run view', async () => {
    const into = show(kestrel.client({ scenario: 'failed-retryable' }), 'Summarise');
    const user = userEvent.setup();
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5_000 });
    const first = into.run!.getState().runId;
    await user.click(retry);
    await waitFor(() => expect(into.run!.getState().runId).not.toBe(first), { timeout: 5_000 });
    await waitFor(() => expect(document.activeElement).toBe(runRoot()));
  });

  it('Reconnect: once the run resumes, the alert is gone and focus is on the run view', async () => {
    const into = show(kestrel.client({ scenario: 'truncated' }), 'Summarise');
    const user = userEvent.setup();
    const reconnect = await screen.findByRole('button', { name: 'Reconnect' }, { timeout: 5_000 });
    await user.click(reconnect);
    await waitFor(() => expect(into.run!.getState().phase).not.toBe('error'));
    await waitFor(() => expect(document.activeElement).toBe(runRoot()));
  });

  it('a WAITING question, once answered, hands focus to the run view, where the answer continues', async () => {
    const scenario = getScenario('waiting-approval');
    show(kestrel.client({ scenario: scenario.name }), scenario.input);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }, { timeout: 5_000 }));
    await waitFor(() => expect(runRoot().dataset.status).toBe('COMPLETED'), { timeout: 5_000 });
    expect(runRoot().textContent).toContain(scenario.continuation!.expected.assistantText!);
    await waitFor(() => expect(document.activeElement).toBe(runRoot()));
  });

  it("a conversation's Stop hands focus to the thread (not the message field: a phone would open its keyboard)", async () => {
    function Conversation() {
      // As for the run view's Stop above: slow enough that the click lands while the answer streams.
      const session = useSession({ client: kestrel.client({ scenario: 'completed-text', delayMs: 200 }) });
      return <SessionView session={session} />;
    }
    render(<Conversation />, options);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Summarise{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Stop' }, { timeout: 5_000 }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull(), { timeout: 5_000 });
    // Stopped, not finished: Stop went because of the click.
    await waitFor(() =>
      expect(document.querySelector<HTMLElement>('[data-kestrel-run]')?.dataset.status).toBe('CANCELLED'),
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('log', { name: 'Conversation' })));
  });
});
