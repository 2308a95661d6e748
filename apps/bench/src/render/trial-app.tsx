import { useChat } from '@ai-sdk/react';
import { createTimerFrameScheduler, type RunClient } from '@kestrel/core';
import { useRun } from '@kestrel/react';
import type { ChatTransport, UIMessage } from 'ai';
import { Profiler, useEffect, type ReactNode } from 'react';
import { chunkTransport, kestrelClient } from './stream-sources.js';
import type { TrialOptions, TrialResult } from './trial-types.js';

export interface TrialHost {
  readonly createRoot: (container: HTMLElement) => { render(node: ReactNode): void; unmount(): void };
  readonly container: HTMLElement;
  /** Starts counting long tasks; the returned function stops and reports them. */
  readonly watchLongTasks: () => () => { count: number; totalMs: number };
}

function KitView({ client, onDone }: { client: RunClient; onDone: () => void }) {
  const run = useRun({ client });
  const { start } = run;
  useEffect(() => {
    start('Write a very long answer');
  }, [start]);
  const { phase } = run.state;
  useEffect(() => {
    if (phase === 'settled') onDone();
  }, [phase, onDone]);
  return (
    <div data-testid="text" data-phase={phase}>
      {phase === 'settled' ? run.state.output?.assistantText : run.state.draftText}
    </div>
  );
}

function ChatView({
  transport,
  throttle,
  onDone,
}: {
  transport: ChatTransport<UIMessage>;
  throttle: number | undefined;
  onDone: () => void;
}) {
  const { messages, sendMessage, status } = useChat({ transport, experimental_throttle: throttle });
  useEffect(() => {
    void sendMessage({ text: 'Write a very long answer' });
  }, [sendMessage]);
  const last = messages.at(-1);
  const done = status === 'ready' && last?.role === 'assistant';
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
  const text =
    last?.role === 'assistant' ? last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
  return (
    <div data-testid="text" data-status={status}>
      {text}
    </div>
  );
}

/** Streams the deltas to one contender and counts what React and the main thread did meanwhile. */
export async function runTrial(host: TrialHost, options: TrialOptions): Promise<TrialResult> {
  const { deltas } = options;
  const expected = deltas.join('');
  let frame = 0;
  const tick = () => {
    frame += 1;
    frameHandle = requestAnimationFrame(tick);
  };
  let frameHandle = requestAnimationFrame(tick);

  const commits: { frame: number; textLength: number; phase: string | undefined }[] = [];
  let reactRenderMs = 0;
  const onRender = (_id: string, _phase: string, actualDuration: number) => {
    reactRenderMs += actualDuration;
    // What this commit put on screen, read from the DOM: the text, and the kit's phase or useChat's status.
    const shown = host.container.firstElementChild as HTMLElement | null;
    commits.push({
      frame,
      textLength: shown?.textContent?.length ?? 0,
      phase: shown?.dataset.phase ?? shown?.dataset.status,
    });
  };
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const content =
    options.contender === 'kit' || options.contender === 'kit-timer50' ? (
      <KitView
        client={kestrelClient(deltas, {
          rate: options.rate,
          scheduler: options.contender === 'kit-timer50' ? createTimerFrameScheduler(50) : undefined,
        })}
        onDone={resolveDone}
      />
    ) : (
      <ChatView
        transport={chunkTransport(deltas, { rate: options.rate })}
        throttle={options.contender === 'useChat-throttle50' ? 50 : undefined}
        onDone={resolveDone}
      />
    );

  const stopLongTasks = host.watchLongTasks();
  const started = performance.now();
  const root = host.createRoot(host.container);
  root.render(
    <Profiler id="trial" onRender={onRender}>
      {content}
    </Profiler>,
  );
  await done;
  // Let a last throttled or frame-batched commit land.
  await new Promise((resolve) => setTimeout(resolve, 120));
  const durationMs = performance.now() - started;
  const longTasks = stopLongTasks();
  cancelAnimationFrame(frameHandle);
  const textComplete = host.container.textContent === expected;
  root.unmount();

  const motionPerFrame = new Map<number, number>();
  commits.forEach((commit, i) => {
    // Motion: the text changed while the phase (status) did not, as in packages/react/src/render-budget.test.tsx.
    const previous = commits[i - 1];
    if (previous !== undefined && commit.textLength !== previous.textLength && commit.phase === previous.phase)
      motionPerFrame.set(commit.frame, (motionPerFrame.get(commit.frame) ?? 0) + 1);
  });
  return {
    contender: options.contender,
    rate: options.rate,
    deltas: deltas.length,
    commits: commits.length,
    maxMotionCommitsPerFrame: Math.max(0, ...motionPerFrame.values()),
    frames: frame,
    durationMs: Math.round(durationMs),
    reactRenderMs: Math.round(reactRenderMs),
    longTasks: longTasks.count,
    longTaskMs: Math.round(longTasks.totalMs),
    textComplete,
  };
}
