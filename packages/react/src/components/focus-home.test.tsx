import type { RunBinding, RunClient } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { useSession } from '../use-session.js';
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
    show(kestrel.client({ scenario: 'completed-text', delayMs: 40 }), 'Summarise');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Stop the run' }));
    await waitFor(() => expect(runRoot().dataset.status).toBe('CANCELLED'), { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: 'Stop the run' })).toBeNull();
    expect(document.activeElement).toBe(runRoot());
    // Reachable from script only: the view did not become a tab stop.
    expect(runRoot().tabIndex).toBe(-1);
  });

  it('Try again: while the run starts over, focus is on the run view', async () => {
    const into = show(kestrel.client({ scenario: 'failed-retryable' }), 'Summarise');
    const user = userEvent.setup();
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5_000 });
    const first = into.run!.getState().runId;
    await user.click(retry);
    await waitFor(() => expect(into.run!.getState().runId).not.toBe(first), { timeout: 5_000 });
    expect(document.activeElement).toBe(runRoot());
  });

  it('a WAITING question, once answered, hands focus to the run view, where the answer continues', async () => {
    const scenario = getScenario('waiting-approval');
    show(kestrel.client({ scenario: scenario.name }), scenario.input);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }, { timeout: 5_000 }));
    await waitFor(() => expect(runRoot().dataset.status).toBe('COMPLETED'), { timeout: 5_000 });
    expect(runRoot().textContent).toContain(scenario.continuation!.expected.assistantText!);
    expect(document.activeElement).toBe(runRoot());
  });

  it("a conversation's Stop hands focus to the message field, ready for the next message", async () => {
    function Conversation() {
      const session = useSession({ client: kestrel.client({ scenario: 'completed-text', delayMs: 40 }) });
      return <SessionView session={session} />;
    }
    render(<Conversation />, options);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Summarise{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Stop' }, { timeout: 5_000 }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull(), { timeout: 5_000 });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });
});
