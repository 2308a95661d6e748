import type { RunBinding } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Profiler, useLayoutEffect } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { useRunBinding } from './use-run-binding.js';
import { useRunSelector } from './use-run-selector.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

function PhaseBadge({ run }: { run: RunBinding }) {
  const phase = useRunSelector(run, (state) => state.phase);
  return <span data-testid="phase">{phase}</span>;
}

function Draft({ run }: { run: RunBinding }) {
  const text = useRunSelector(run, (state) => state.draftText);
  return <p data-testid="draft">{text}</p>;
}

describeModes('useRunSelector isolates re-renders', ({ options }) => {
  it('a phase badge commits once per phase while the draft commits with the text', async () => {
    const scenario = getScenario('completed-text');
    const commits = { app: 0, phase: 0, draft: 0 };
    let appRenders = 0;
    const count = (id: string) => () => {
      commits[id as keyof typeof commits] += 1;
    };
    let binding: RunBinding | null = null;
    function App() {
      // Deltas 25 ms apart, like a real run: the text spans several 50 ms motion notifications.
      const run = useRunBinding({ client: kestrel.client({ scenario: scenario.name, delayMs: 25 }) });
      useLayoutEffect(() => {
        binding = run;
        appRenders += 1;
      });
      return (
        <Profiler id="app" onRender={count('app')}>
          <Profiler id="phase" onRender={count('phase')}>
            <PhaseBadge run={run} />
          </Profiler>
          <Profiler id="draft" onRender={count('draft')}>
            <Draft run={run} />
          </Profiler>
        </Profiler>
      );
    }
    render(<App />, options);
    const mounted = { ...commits };
    const appMounted = appRenders;
    act(() => binding!.start(scenario.input));
    await waitFor(() => expect(screen.getByTestId('phase').textContent).toBe('settled'));
    expect(screen.getByTestId('draft').textContent).toBe(scenario.expected.draftText);
    // idle → connecting → streaming → settled: three changes after mount, whatever the number of deltas.
    expect(commits.phase - mounted.phase).toBe(3);
    expect(commits.draft - mounted.draft).toBeGreaterThan(3);
    // The component holding the binding never re-renders: it does not subscribe.
    expect(appRenders).toBe(appMounted);
  });
});
