import type { RunPhase } from '@kestrel/core';
import { createLongStreamScenario, createManualFrameScheduler, scenarios } from '@kestrel/testing';
import { act, render, waitFor } from '@testing-library/react';
import { memo, Profiler, useLayoutEffect, useState, type ComponentType, type ReactNode } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeModes, type RenderMode } from '../test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import type { UseRunResult } from '../types.js';
import { useRun } from '../use-run.js';
import type { RenderText } from './assistant-text.js';
import { Run } from './run-parts.js';
import { RunView } from './run-view.js';

const DELTAS = 300;
const longStream = createLongStreamScenario({ deltas: DELTAS, name: 'renders-long-stream' });

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel({ scenarios: [...scenarios, longStream] });
});
afterAll(() => kestrel.close());

const parts = {
  status: Run.Status,
  connection: Run.Connection,
  activity: Run.Activity,
  outcome: Run.Outcome,
  text: Run.Text,
  finishNotice: Run.FinishNotice,
  prompt: Run.Prompt,
  payload: Run.Payload,
  error: Run.Error,
  receivedOutcome: Run.ReceivedOutcome,
  cancel: Run.Cancel,
} as const;
type PartName = keyof typeof parts;

const renderJson = (value: unknown) => <pre>{JSON.stringify(value)}</pre>;
const tools = {};

interface Commit {
  readonly part: PartName;
  readonly phase: RunPhase;
  readonly draftLength: number;
}

/** What is on screen at a commit, read from the DOM (the root's phase, the text part's length). */
function shown(): Omit<Commit, 'part'> {
  const root = document.querySelector<HTMLElement>('[data-kestrel-run]');
  const text = document.querySelector('[data-kestrel-part="draft"], [data-kestrel-part="assistant-text"]');
  return { phase: (root?.dataset.phase ?? 'idle') as RunPhase, draftLength: text?.textContent?.length ?? 0 };
}

/*
 * A part inside a Profiler that only its own work can make commit: the wrapper takes the part's component (not an
 * element), so the component holding `useRun` re-rendering does not re-render it. What makes the part commit is then
 * its subscription and the root's context, which is what is under test.
 */
const Profiled = memo(function Profiled({ name, commits }: { name: PartName; commits: Commit[] }) {
  const Part = parts[name] as ComponentType;
  return (
    <Profiler id={name} onRender={() => commits.push({ part: name, ...shown() })}>
      <Part />
    </Profiler>
  );
});

async function streamWith(
  options: RenderMode['options'],
  view: (run: UseRunResult, commits: Commit[]) => ReactNode,
): Promise<{ commits: Commit[]; rerenderParent: () => void }> {
  const frames = createManualFrameScheduler();
  const client = kestrel.client({ scenario: longStream.name, delayMs: 1, scheduler: frames.scheduler });
  const commits: Commit[] = [];
  let latest: UseRunResult | null = null;
  let bump: (() => void) | null = null;
  function App() {
    const run = useRun({ client }); // plain useRun: this component re-renders on every change
    const [, setBumps] = useState(0);
    useLayoutEffect(() => {
      latest = run;
      bump = () => setBumps((n) => n + 1);
    });
    return view(run, commits);
  }
  render(<App />, options);
  const ticker = setInterval(() => frames.frame(), 2);
  try {
    commits.length = 0;
    act(() => latest!.start(longStream.input));
    await waitFor(() => expect(latest!.state.phase).toBe('settled'), { timeout: 10_000, interval: 5 });
  } finally {
    clearInterval(ticker);
  }
  return { commits, rerenderParent: () => act(() => bump!()) };
}

/**
 * Commits while only text deltas arrived: streaming, after the commit that showed the phase change (and whatever
 * text came with it), before the last delta (the stream's closing events, turn/end and agent.idle, follow it).
 */
function duringDeltas(commits: readonly Commit[]): Commit[] {
  const streaming = commits.filter((commit) => commit.phase === 'streaming');
  const first = Math.min(...streaming.map((commit) => commit.draftLength));
  const last = longStream.expected.draftText!.length;
  return streaming.filter((commit) => commit.draftLength > first && commit.draftLength < last);
}

describeModes(`parts re-render for their own slice only, under plain useRun (${DELTAS} text deltas)`, ({ options }) => {
  it('Status, Activity, Outcome, Prompt, Payload and the others do not commit on text.delta; Text commits once per motion notification', async () => {
    const names = Object.keys(parts) as PartName[];
    const { commits } = await streamWith(options, (run, log) => (
      <Run.Root run={run} renderPayload={renderJson} tools={tools}>
        {names.map((name) => (
          <Profiled key={name} name={name} commits={log} />
        ))}
      </Run.Root>
    ));
    const streaming = duringDeltas(commits);
    const byPart = (part: PartName) => streaming.filter((commit) => commit.part === part);
    const text = byPart('text');
    console.info(
      `[renders] ${DELTAS} deltas: ${text.length} Text commits while streaming; others: ${names
        .filter((name) => name !== 'text')
        .map((name) => `${name} ${byPart(name).length}`)
        .join(', ')}`,
    );
    // Text: one commit per distinct text it showed (one per motion notification), far fewer than the deltas.
    expect(text.length).toBeGreaterThanOrEqual(2);
    expect(new Set(text.map((commit) => commit.draftLength)).size).toBe(text.length);
    expect(text.length).toBeLessThan(DELTAS / 3);
    for (const name of names.filter((part) => part !== 'text')) expect(byPart(name), name).toEqual([]);
    expect(commits.at(-1)?.phase).toBe('settled');
    expect(document.querySelector('[data-kestrel-part="assistant-text"] [data-kestrel-text]')?.textContent).toBe(
      longStream.expected.assistantText,
    );
  });

  it('an inline renderPayload re-renders only the parts that use it with its parent', async () => {
    const names = Object.keys(parts) as PartName[];
    const { commits } = await streamWith(options, (run, log) => (
      <Run.Root run={run} renderPayload={(value) => <pre>{JSON.stringify(value)}</pre>} tools={tools}>
        {names.map((name) => (
          <Profiled key={name} name={name} commits={log} />
        ))}
      </Run.Root>
    ));
    const streaming = duringDeltas(commits);
    const followers = new Set(streaming.map((commit) => commit.part));
    expect(followers).toEqual(new Set(['text', 'payload', 'receivedOutcome']));
  });

  it('<RunView run={useRun()}> renders its text once per notification, and not at all when only its parent re-renders', async () => {
    const calls: string[] = [];
    const renderText: RenderText = (text) => {
      calls.push(text);
      return text;
    };
    const { rerenderParent } = await streamWith(options, (run) => (
      // A new object holding the same run on every render, as `useRun` returns one on every change.
      <RunView run={{ ...run }} renderText={renderText} />
    ));
    // StrictMode calls each render twice in a row; one call per render is what counts.
    const rendered = options.reactStrictMode ? calls.filter((text, i) => i === 0 || text !== calls[i - 1]) : calls;
    // Each render showed a text no earlier one did (one render per notification), but for the settled answer, which
    // shows the last draft's text again, now as the result.
    expect(rendered.length).toBeGreaterThanOrEqual(2);
    expect(rendered.length - new Set(rendered).size).toBeLessThanOrEqual(1);
    expect(rendered.length).toBeLessThan(DELTAS / 3);
    expect(rendered.at(-1)).toBe(longStream.expected.assistantText);
    // The parent re-renders with no change in the run, handing RunView a new object each time: nothing below renders.
    const before = calls.length;
    for (let i = 0; i < 5; i += 1) rerenderParent();
    expect(calls.length).toBe(before);
  });
});
