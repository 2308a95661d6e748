import type { RunClient, RunHandle } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import type { UseRunResult } from '../types.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { RunView } from './run-view.js';

/* A RunView open on a WAITING run that another tab answers first, against the loopback Kestrel. */

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const approval = getScenario('waiting-approval');

function Tab({ client, runId }: { client: RunClient; runId: string }) {
  const run = useRun({ client });
  useEffect(() => run.resume(runId), [run, runId]);
  return <RunView run={run} />;
}

describeModes('RunView: an answer that another tab gave first', ({ options }) => {
  it('says the answer was not sent once the question goes, instead of vanishing without a word', async () => {
    const elsewhere = kestrel.client({ scenario: 'waiting-approval' }).start({ input: approval.input });
    await elsewhere.result;
    render(<Tab client={kestrel.client()} runId={elsewhere.getState().runId!} />, options);
    const reject = await screen.findByRole('button', { name: 'Reject' }, { timeout: 5_000 });
    await (
      await elsewhere.respond(approval.continuation!.answer)
    ).result; // the other tab approves first

    await userEvent.setup().click(reject);
    const note = await screen.findByText(
      'Not sent: this question was already answered in another tab or on another device.',
    );
    expect(note.getAttribute('role')).toBe('alert');
    expect(note.dataset.state).toBe('not-taken');
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
    // The view shows what the run became with the other tab's answer, the note beside it.
    await waitFor(() =>
      expect(document.querySelector('[data-kestrel-part="assistant-text"]')?.textContent).toBe(
        approval.continuation!.expected.assistantText,
      ),
    );
    expect(screen.getByText(/Not sent: this question was already answered/)).toBe(note);
    await expectNoAxeViolations(document.body);
  });
});

/** A client whose answers wait for `gate` (a slow network for the answer only). */
function slowAnswers(client: RunClient, gate: Promise<void>): RunClient {
  const wrap = <P,>(handle: RunHandle<P>): RunHandle<P> => ({
    ...handle,
    respond: async (answer) => {
      await gate;
      return handle.respond(answer);
    },
  });
  return {
    ...client,
    start: (options) => wrap(client.start(options)),
    resume: (options) => wrap(client.resume(options)),
  };
}

describeModes('RunView: a late refusal that comes back once another run is shown', ({ options }) => {
  it("never puts that run's note on the other one, nor back on it later", async () => {
    const elsewhere = kestrel.client({ scenario: 'waiting-approval' }).start({ input: approval.input });
    await elsewhere.result;
    const first = elsewhere.getState().runId!;
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const into = { current: null as UseRunResult | null };
    function Tab() {
      const run = useRun({ client: slowAnswers(kestrel.client({ scenario: 'completed-text' }), gate) });
      useEffect(() => {
        into.current = run;
      });
      const { resume } = run;
      useEffect(() => resume(first), [resume]);
      return <RunView run={run} />;
    }
    render(<Tab />, options);
    const reject = await screen.findByRole('button', { name: 'Reject' }, { timeout: 5_000 });
    await (
      await elsewhere.respond(approval.continuation!.answer)
    ).result; // the other tab answers first
    await userEvent.setup().click(reject); // on its way, slowly
    act(() => into.current!.start(getScenario('completed-text').input)); // the person starts another run meanwhile
    await waitFor(() => expect(into.current!.state.runId ?? first).not.toBe(first), { timeout: 5_000 });
    await act(async () => {
      open();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(document.querySelector('[data-state="not-taken"]')).toBeNull();
  });
});
