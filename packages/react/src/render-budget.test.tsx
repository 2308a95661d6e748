import type { RunPhase } from '@kestrel/core';
import { createLongStreamScenario, createManualFrameScheduler, scenarios } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KestrelProvider } from './kestrel-provider.js';
import { describeModes, type RenderMode } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { createProbe, RunProbe } from './test-support/run-probe.test-helper.js';

const DELTAS = 10_000;
const longStream = createLongStreamScenario({ deltas: DELTAS });

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel({ scenarios: [...scenarios, longStream] });
});
afterAll(() => kestrel.close());

interface Commit {
  readonly frame: number;
  readonly phase: RunPhase;
  readonly draftLength: number;
}

async function streamLong(options: RenderMode['options'], frameEveryMs: number | null) {
  const frames = createManualFrameScheduler();
  const probe = createProbe();
  const commits: Commit[] = [];
  const client = kestrel.client({ scenario: longStream.name, scheduler: frames.scheduler });
  render(
    <KestrelProvider client={client}>
      <Profiler
        id="run"
        onRender={() => {
          // What this commit put on screen, read from the DOM.
          const shown = screen.getByTestId('run');
          commits.push({
            frame: frames.frames,
            phase: shown.dataset.phase as RunPhase,
            draftLength: screen.getByTestId('draft').textContent?.length ?? 0,
          });
        }}
      >
        <RunProbe probe={probe} />
      </Profiler>
    </KestrelProvider>,
    options,
  );
  const ticker = frameEveryMs === null ? null : setInterval(() => frames.frame(), frameEveryMs);
  commits.length = 0;
  act(() => probe.current?.start(longStream.input));
  try {
    await waitFor(() => expect(probe.current?.state.phase).toBe('settled'), { timeout: 10_000, interval: 5 });
  } finally {
    if (ticker !== null) clearInterval(ticker);
  }
  return { commits, frames: frames.frames, state: probe.current!.state };
}

describeModes(`render budget: ${DELTAS} text deltas`, ({ options }) => {
  it('commits at most once per frame for motion, and the terminal state without a frame', async () => {
    const { commits, frames, state } = await streamLong(options, 2);
    expect(state.events.length).toBe(DELTAS + 5);
    expect(state.draftText).toBe(longStream.expected.draftText);
    // Motion commits: the phase did not change since the previous commit. Group them by the frame they followed.
    const motionPerFrame = new Map<number, number>();
    commits.forEach((commit, i) => {
      if (i === 0 || commits[i - 1]!.phase !== commit.phase) return;
      motionPerFrame.set(commit.frame, (motionPerFrame.get(commit.frame) ?? 0) + 1);
    });
    const worst = Math.max(0, ...motionPerFrame.values());
    console.info(
      `[render budget] ${DELTAS} deltas: ${commits.length} commits, ${frames} frames, ${[...motionPerFrame.values()].reduce((a, b) => a + b, 0)} motion commits, at most ${worst} per frame`,
    );
    expect(worst).toBeLessThanOrEqual(1);
    expect(commits.length).toBeLessThan(DELTAS / 10);
    expect(commits.at(-1)).toMatchObject({ phase: 'settled', draftLength: state.draftText.length });
  });

  it('commits the settled state with every delta in it even when no frame ever runs', async () => {
    const { commits, frames, state } = await streamLong(options, null);
    console.info(
      `[render budget] no frames: ${commits.length} commits (${commits.map((commit) => commit.phase).join(' → ')})`,
    );
    expect(frames).toBe(0);
    expect(state.phase).toBe('settled');
    expect(commits.at(-1)).toMatchObject({ phase: 'settled', draftLength: longStream.expected.draftText!.length });
    // Only immediate flushes committed: connecting, streaming, the non-motion events at the end (turn/end,
    // agent.idle) and settled; none of the 10,000 deltas did on its own.
    expect(commits.length).toBeLessThanOrEqual(4);
    expect(commits.filter((commit) => commit.phase === 'streaming').length).toBeLessThanOrEqual(2);
  });
});
