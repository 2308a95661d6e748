import type { InteractionAnswer, RunClient } from '@kestrel/core';
import { createScenarioRun, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { expect, it, vi } from 'vitest';
import { startLoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { describeModes } from '../test-support/describe-modes.test-helper.js';
import { useRun } from '../use-run.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { ApprovalBar } from './docs-examples/custom-interaction.js';
import { Run } from './run-parts.js';
import { useInteraction } from './use-interaction.js';

const scenario = getScenario('waiting-approval');
const question = 'Send the Q3 report to the board (6 recipients)?';

function waitingRun(name: string, respond: (answer: InteractionAnswer) => Promise<void>) {
  return { ...createScenarioSource(getScenario(name)), respond: vi.fn(respond) };
}

/** The docs' hook-only approval bar on a real run, with the run's final text beside it. */
function App({ client }: { client: RunClient }) {
  const run = useRun({ client });
  const { start } = run;
  useEffect(() => {
    start(scenario.input);
  }, [start]);
  const output = run.state.phase === 'settled' ? run.state.output : undefined;
  return (
    <>
      <ApprovalBar run={run} />
      <output>{output?.status === 'COMPLETED' ? output.assistantText : ''}</output>
    </>
  );
}

describeModes('useInteraction', ({ options }) => {
  it('drives an app-built approval bar (no kit component) over a real Kestrel: the answer goes and the run completes', async () => {
    const user = userEvent.setup();
    const kestrel = await startLoopbackKestrel();
    try {
      const { container } = render(<App client={kestrel.client({ scenario: scenario.name })} />, options);
      const bar = await screen.findByRole('group', { name: question }, { timeout: 5000 });
      await expectNoAxeViolations(container);
      await user.click(within(bar).getByRole('button', { name: 'Approve' }));
      await waitFor(
        () => expect(screen.getByRole('status').textContent).toBe(scenario.continuation?.expected.assistantText),
        {
          timeout: 5000,
        },
      );
      expect(screen.queryByRole('group')).toBeNull();
    } finally {
      await kestrel.close();
    }
  });

  it('holds one subscription to the run, countdown included', () => {
    const run = waitingRun('waiting-form', () => Promise.resolve());
    let active = 0;
    const subscribe = run.subscribe;
    run.subscribe = (listener) => {
      active += 1;
      const unsubscribe = subscribe(listener);
      return () => {
        active -= 1;
        unsubscribe();
      };
    };
    renderHook(() => useInteraction(run, { now: () => Date.parse('2098-12-31T23:55:00Z') }), options);
    expect(active).toBe(1);
  });

  it("answers 'not-taken' when another tab answered first, so an app's own UI can say so (the hook is null by then)", async () => {
    const run = createScenarioRun(scenario, { answeredElsewhere: true });
    const { result } = renderHook(() => useInteraction(run), options);
    const controller = result.current;
    if (controller?.kind !== 'approval') throw new Error(`expected an approval, got ${controller?.kind}`);
    let outcome: string | undefined;
    await act(async () => {
      outcome = await controller.answer({ kind: 'approval', approved: true });
    });
    expect(outcome).toBe('not-taken');
    expect(result.current).toBeNull(); // the run was read again: it no longer waits
  });

  it('is null unless the run is WAITING', () => {
    const { result } = renderHook(() => useInteraction(createScenarioRun(getScenario('completed-text'))), options);
    expect(result.current).toBeNull();
  });

  it('takes the run of the Run.Root it is under, and names itself when it has none', () => {
    const run = createScenarioRun(scenario);
    const { result } = renderHook(() => useInteraction(), {
      ...options,
      wrapper: ({ children }) => <Run.Root run={run}>{children}</Run.Root>,
    });
    expect(result.current?.kind).toBe('approval');
    expect(result.current?.interaction.id).toBe('int_approval');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useInteraction(), options)).toThrow(/<useInteraction> needs a run/);
  });

  it('refuses an answer that does not fit, with its issues keyed by control, and sends nothing', async () => {
    const run = waitingRun('waiting-form', () => Promise.resolve());
    const { result } = renderHook(() => useInteraction(run), options);
    const waiting = result.current;
    if (waiting?.kind !== 'form') throw new Error('waiting-form is not a form');
    expect(await waiting.answer({ kind: 'form', values: { amount: 'twenty' } })).toBe('invalid');
    await waitFor(() => expect(result.current?.state).toBe('invalid'));
    expect(result.current?.issues['field:project']?.code).toBe('required');
    expect(result.current?.issues['field:amount']?.code).toBe('not-number');
    expect(run.respond).not.toHaveBeenCalled();
  });

  it('sends once when answered twice before the first answer settles, then reports what the server said', async () => {
    let refuse: (error: Error) => void = () => undefined;
    const run = waitingRun('waiting-approval', () => new Promise((_resolve, reject) => (refuse = reject)));
    const { result } = renderHook(() => useInteraction(run), options);
    const waiting = result.current;
    if (waiting?.kind !== 'approval') throw new Error('waiting-approval is not an approval');
    const first = waiting.answer({ kind: 'approval', approved: true });
    const second = waiting.answer({ kind: 'approval', approved: false });
    expect(run.respond).toHaveBeenCalledTimes(1);
    expect(await second).toBe('busy');
    await waitFor(() => expect(result.current?.state).toBe('submitting'));
    refuse(new Error('The board list changed'));
    expect(await first).toBe('rejected');
    await waitFor(() =>
      expect(result.current?.rejection).toMatchObject({ kind: 'rejected', message: 'The board list changed' }),
    );
  });

  it('settles an answer that returns after unmount without touching the unmounted component', async () => {
    let accept: () => void = () => undefined;
    const run = waitingRun('waiting-approval', () => new Promise<void>((resolve) => (accept = resolve)));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result, unmount } = renderHook(() => useInteraction(run), options);
    const waiting = result.current;
    if (waiting?.kind !== 'approval') throw new Error('waiting-approval is not an approval');
    const sent = waiting.answer({ kind: 'approval', approved: true });
    unmount();
    accept();
    expect(await sent).toBe('sent');
    expect(error).not.toHaveBeenCalled();
  });
});
