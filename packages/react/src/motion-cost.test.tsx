import type { RunBinding } from '@kestrel/core';
import { createLongStreamScenario, createManualFrameScheduler, scenarios } from '@kestrel/testing';
import { act, render, waitFor } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { useRunBinding } from './use-run-binding.js';
import { useRunSelector } from './use-run-selector.js';

const longStream = createLongStreamScenario({ deltas: 400, name: 'motion-cost-long-stream' });

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel({ scenarios: [...scenarios, longStream] });
});
afterAll(() => kestrel.close());

describeModes('the motion schedule counts React renders as their cost', ({ options }) => {
  it('a draft whose render takes 40 ms (on the scheduler clock) is drawn about every 100 ms, not every 50', async () => {
    const frames = createManualFrameScheduler();
    const client = kestrel.client({ scenario: longStream.name, delayMs: 3, scheduler: frames.scheduler });
    const drawnAt: number[] = [];
    let binding: RunBinding | null = null;

    function SlowDraft({ run }: { run: RunBinding }) {
      const text = useRunSelector(run, (state) => (state.phase === 'streaming' ? state.draftText : ''));
      // The render "takes" 40 ms: React runs it after the store's notification returned, in a microtask.
      frames.advance(40);
      useLayoutEffect(() => {
        if (text.length > 0) drawnAt.push(frames.now);
      }, [text]);
      return <p>{text}</p>;
    }
    function App() {
      const run = useRunBinding({ client });
      useLayoutEffect(() => {
        binding = run;
      });
      return <SlowDraft run={run} />;
    }

    render(<App />, options);
    const ticker = setInterval(() => frames.frame(), 2);
    try {
      act(() => binding!.start(longStream.input));
      await waitFor(() => expect(binding!.getState().phase).toBe('settled'), { timeout: 10_000, interval: 5 });
    } finally {
      clearInterval(ticker);
    }
    // Once the cost is known (after the first two draws), three times 40 ms is wanted and 100 ms is the bound, taken
    // at the nearest frame (16 ms each). Without the render counted, the gap would be the 50 ms interval.
    const gaps = drawnAt.slice(2).map((at, i) => at - drawnAt[i + 1]!);
    expect(gaps.length, `drawn at ${drawnAt.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(Math.min(...gaps), `drawn at ${drawnAt.join(', ')}`).toBeGreaterThanOrEqual(100 - 16 / 2);
  });
});
