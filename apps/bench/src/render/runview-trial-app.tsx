import { useChat } from '@ai-sdk/react';
import type { RunClient, RunState } from '@kestrel/core';
import { RunView, useRun, useRunSelector, type UseRunResult } from '@kestrel/react';
import { renderMarkdown } from '@kestrel/react/markdown';
import type { ChatTransport, UIMessage } from 'ai';
import { Profiler, useEffect } from 'react';
import { Streamdown } from 'streamdown';
import { paintLatencies, type Commit } from './paint-latency.js';
import type { RunViewContender, RunViewPageResult, RunViewTrialOptions } from './runview-trial-types.js';
import { chunkTransport, kestrelClient } from './stream-sources.js';
import type { TrialHost } from './trial-app.js';

/** Told, while rendering, what the render about to be committed shows; the Profiler's onRender reads it back. */
type RecordShown = (length: number, settled: boolean) => void;

const shownText = (state: RunState) =>
  state.phase === 'settled' ? (state.output?.assistantText ?? state.draftText) : state.draftText;
const selectLength = (state: RunState) => shownText(state).length;
const selectSettled = (state: RunState) => state.phase === 'settled';

/**
 * Renders nothing; subscribes to the same run as the view, so it renders in the same commit as the view's text and
 * records how much of the answer that commit shows.
 */
function ShownProbe({ run, record }: { run: UseRunResult; record: RecordShown }) {
  record(useRunSelector(run, selectLength), useRunSelector(run, selectSettled));
  return null;
}

function useStartedRun(client: RunClient) {
  const run = useRun({ client });
  const { start } = run;
  useEffect(() => {
    start('Write the quarterly report');
  }, [start]);
  return run;
}

function KitRunView({ client, markdown, record }: { client: RunClient; markdown: boolean; record: RecordShown }) {
  const run = useStartedRun(client);
  return (
    <>
      <ShownProbe run={run} record={record} />
      <RunView run={run} renderText={markdown ? renderMarkdown : undefined} />
    </>
  );
}

function StreamdownView({ client, record }: { client: RunClient; record: RecordShown }) {
  const run = useStartedRun(client);
  const text = useRunSelector(run, shownText);
  const settled = useRunSelector(run, selectSettled);
  return (
    <>
      <ShownProbe run={run} record={record} />
      <Streamdown isAnimating={!settled}>{text}</Streamdown>
    </>
  );
}

function ChatView({ transport, record }: { transport: ChatTransport<UIMessage>; record: RecordShown }) {
  const { messages, sendMessage, status } = useChat({ transport, experimental_throttle: 50 });
  useEffect(() => {
    void sendMessage({ text: 'Write the quarterly report' });
  }, [sendMessage]);
  const last = messages.at(-1);
  const text =
    last?.role === 'assistant' ? last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
  record(text.length, status === 'ready' && last?.role === 'assistant');
  return <div style={{ whiteSpace: 'pre-wrap' }}>{text}</div>;
}

function checkContent(options: RunViewTrialOptions, container: HTMLElement): RunViewPageResult['contentCheck'] {
  const text = options.deltas.join('');
  if (options.contender === 'runview-plain' || options.contender === 'useChat-throttle50') {
    const ok = container.textContent?.includes(text) === true;
    return { ok, detail: ok ? 'the whole text is shown' : 'the shown text differs from the answer' };
  }
  // Markdown: as many headings, code blocks, tables, table rows and list items as the source has (the text itself
  // is re-formatted). Tables are counted by their delimiter rows; the answers nest no list and quote no table.
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const delimiters = count(/^\|(?: *:?-{3,}:? *\|)+$/gm);
  const expected = {
    h2: count(/^## /gm),
    pre: count(/^```ts$/gm),
    table: delimiters,
    tr: count(/^\|/gm) - delimiters,
    li: count(/^(?:- |\d+\. )/gm),
  };
  const found = {
    h2: container.querySelectorAll('h2').length,
    pre: container.querySelectorAll('pre').length,
    table: container.querySelectorAll('table').length,
    tr: container.querySelectorAll('tr').length,
    li: container.querySelectorAll('li').length,
  };
  const names = Object.keys(expected) as (keyof typeof expected)[];
  const ok = names.every((name) => found[name] === expected[name]);
  return { ok, detail: names.map((name) => `${name} ${found[name]}/${expected[name]}`).join(', ') };
}

/**
 * Renders the contender's renderer once on the answer's first 4,000 characters, off screen, before measuring: the
 * first 10% of the stream should show the cost of the stream, not of compiling the renderer's code.
 */
async function warmUp(host: TrialHost, contender: RunViewContender, text: string): Promise<void> {
  const sample = text.slice(0, 4_000);
  const element = (() => {
    switch (contender) {
      case 'runview-markdown':
        return renderMarkdown(sample, { final: false });
      case 'streamdown':
        return <Streamdown isAnimating>{sample}</Streamdown>;
      case 'runview-plain':
      case 'useChat-throttle50':
        return <div style={{ whiteSpace: 'pre-wrap' }}>{sample}</div>;
      default:
        return contender satisfies never;
    }
  })();
  const container = document.createElement('div');
  document.body.append(container);
  const root = host.createRoot(container);
  root.render(element);
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  root.unmount();
  container.remove();
}

/** Streams the answer to one contender and measures, in the page, what a person would see and when. */
export async function runRunViewTrial(host: TrialHost, options: RunViewTrialOptions): Promise<RunViewPageResult> {
  const { deltas, contender } = options;
  await warmUp(host, contender, deltas.join(''));
  const originMarkMs = performance.mark(options.originMark).startTime;

  // Frame starts, and the end of each frame's paint: a message posted from requestAnimationFrame runs after it.
  const frameStarts: number[] = [];
  const paintEnds: number[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => paintEnds.push(performance.now());
  let frameHandle: number;
  const tick = (time: number) => {
    frameStarts.push(time);
    channel.port2.postMessage(null);
    frameHandle = requestAnimationFrame(tick);
  };
  frameHandle = requestAnimationFrame(tick);

  const deliveries: [number, number][] = [];
  const source = { rate: options.rate, onDelivered: (sent: number) => deliveries.push([performance.now(), sent]) };
  const shown = { length: 0, settled: false };
  const record: RecordShown = (length, isSettled) => {
    shown.length = length;
    shown.settled = isSettled;
  };
  const commits: Commit[] = [];
  let reactRenderMs = 0;
  let resolveSettled!: () => void;
  const settled = new Promise<void>((resolve) => (resolveSettled = resolve));
  const onRender = (_id: string, _phase: string, actualDuration: number) => {
    reactRenderMs += actualDuration;
    commits.push({ time: performance.now(), length: shown.length, settled: shown.settled });
    if (shown.settled) resolveSettled();
  };

  const view = (() => {
    switch (contender) {
      case 'runview-plain':
      case 'runview-markdown':
        return (
          <KitRunView
            client={kestrelClient(deltas, source)}
            markdown={contender === 'runview-markdown'}
            record={record}
          />
        );
      case 'streamdown':
        return <StreamdownView client={kestrelClient(deltas, source)} record={record} />;
      case 'useChat-throttle50':
        return <ChatView transport={chunkTransport(deltas, source)} record={record} />;
      default:
        return contender satisfies never;
    }
  })();

  const stopLongTasks = host.watchLongTasks();
  const started = performance.now();
  const root = host.createRoot(host.container);
  root.render(
    <Profiler id="trial" onRender={onRender}>
      {view}
    </Profiler>,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      settled,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `${contender}: not settled within ${options.timeoutMs} ms (${deliveries.at(-1)?.[1] ?? 0} of ${deltas.length} deltas delivered, ${commits.length} commits)`,
              ),
            ),
          options.timeoutMs,
        );
      }),
    ]);
    // Let the settled commit paint, and a last throttled commit land.
    await new Promise((resolve) => setTimeout(resolve, 150));
  } finally {
    clearTimeout(timer);
    cancelAnimationFrame(frameHandle);
  }
  const durationMs = performance.now() - started;
  const longTasks = stopLongTasks();
  const contentCheck = checkContent(options, host.container);
  root.unmount();
  channel.port1.close();

  const prefix: number[] = [0];
  for (const delta of deltas) prefix.push(prefix.at(-1)! + delta.length);
  const latencies = paintLatencies({ deliveries, prefixLengths: prefix, commits, paintEnds });
  return {
    contender,
    deltas: deltas.length,
    originMarkMs,
    commits: commits.length,
    reactRenderMs: Math.round(reactRenderMs),
    frameStarts,
    deliveries,
    deltaToPaintMs: latencies.deltaToPaint,
    lagAfterLastDeltaMs: latencies.lagAfterLast,
    longTasks: longTasks.count,
    longTaskMs: Math.round(longTasks.totalMs),
    durationMs: Math.round(durationMs),
    contentCheck,
  };
}
