import { useChat } from '@ai-sdk/react';
import { createRunClient, createSessionController, type SessionController, type SessionState } from '@kestrel/core';
import { SessionView } from '@kestrel/react';
import { createScenarioFetch } from '@kestrel/testing';
import type { ChatTransport, UIMessage } from 'ai';
import { memo, Profiler, useEffect, useLayoutEffect } from 'react';
import { changedByKey, commitsPerFrame, type SessionCommit } from './session-frames.js';
import type { SessionPageResult, SessionTrialOptions } from './session-trial-types.js';
import { chunkTransport, kestrelStream, type SourceOptions } from './stream-sources.js';
import type { TrialHost } from './trial-app.js';

const SESSION_ID = 'ses_bench';
const QUESTION = 'Write the quarterly report';
/** The view's height: `<SessionView>` scrolls inside the height it is given (the page's viewport is 720 px). */
const HEIGHT = 720;

/**
 * A run client whose listing is the mock Kestrel's, seeded with `runs` settled runs (`@kestrel/testing`), and whose
 * one POST streams `deltas` on the schedule as real Kestrel SSE.
 */
function benchClient(runs: number, deltas: readonly string[], source: SourceOptions) {
  const listing = createScenarioFetch({ seed: [{ sessionId: SESSION_ID, runs }] });
  let posted = false;
  return createRunClient({
    baseUrl: 'http://bench.invalid',
    fetch: async (input, init) => {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      if (method !== 'POST') return listing(input, init);
      if (posted) throw new Error('the bench streams one run only');
      posted = true;
      return new Response(kestrelStream(deltas, source, { runId: 'run_bench_live', sessionId: SESSION_ID }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    },
  });
}

/** Loads every page of the session's history (100 runs a page), as a person scrolling to its top would. */
async function loadHistory(controller: SessionController): Promise<SessionState> {
  const settledHistory = () => {
    const { history } = controller.getState();
    return history !== 'loading' && history !== 'unknown';
  };
  controller.start();
  await new Promise<void>((resolve) => {
    if (settledHistory()) return resolve();
    const stop = controller.subscribe(() => {
      if (!settledHistory()) return;
      stop();
      resolve();
    });
  });
  while (controller.getState().history === 'more') await controller.loadOlder();
  const state = controller.getState();
  if (state.history !== 'complete') throw new Error(`the history did not load: ${state.history}`);
  return state;
}

const textOf = (message: UIMessage) => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

const ChatMessage = memo(function ChatMessage({ message }: { message: UIMessage }) {
  return (
    <article data-role={message.role}>
      <p>{message.role === 'user' ? 'You' : 'Assistant'}</p>
      <div style={{ whiteSpace: 'pre-wrap' }}>{textOf(message)}</div>
    </article>
  );
});

/** Told after each commit what the chat holds, and once how to send the question. */
interface ChatReport {
  readonly onCommit: (messages: readonly UIMessage[], status: string) => void;
  readonly onReady: (send: () => void) => void;
}

function ChatList({
  transport,
  initial,
  report,
}: {
  transport: ChatTransport<UIMessage>;
  initial: UIMessage[];
  report: ChatReport;
}) {
  const { messages, sendMessage, status } = useChat({ transport, messages: initial, experimental_throttle: 50 });
  const { onCommit, onReady } = report;
  useEffect(() => {
    onReady(() => void sendMessage({ text: QUESTION }));
  }, [sendMessage, onReady]);
  useLayoutEffect(() => {
    onCommit(messages, status);
  }, [messages, status, onCommit]);
  return (
    <div style={{ height: HEIGHT, overflowY: 'auto' }} data-status={status}>
      {messages.map((message) => (
        <ChatMessage key={message.id} message={message} />
      ))}
    </div>
  );
}

const nextPaint = () =>
  new Promise<number>((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve(performance.now());
      };
      channel.port2.postMessage(null);
    }),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Mounts the history, then streams one more run into it, and measures both, in the page. */
export async function runSessionTrial(host: TrialHost, options: SessionTrialOptions): Promise<SessionPageResult> {
  const { contender, deltas } = options;
  const answer = deltas.join('');
  let lastDelivery = 0;
  const source: SourceOptions = { rate: options.rate, onDelivered: () => (lastDelivery = performance.now()) };

  // The history, loaded through the listing before anything is measured: both contenders hold the same runs.
  const controller = createSessionController({
    client: benchClient(options.runs, deltas, source),
    sessionId: SESSION_ID,
    pageSize: 100,
  });
  const history = await loadHistory(controller);
  const initial: UIMessage[] = history.entries.flatMap((entry) => [
    { id: `${entry.key}-q`, role: 'user' as const, parts: [{ type: 'text' as const, text: entry.input }] },
    {
      id: `${entry.key}-a`,
      role: 'assistant' as const,
      parts: [{ type: 'text' as const, text: entry.run.getState().output?.assistantText ?? '' }],
    },
  ]);

  let frame = 0;
  const tick = () => {
    frame += 1;
    frameHandle = requestAnimationFrame(tick);
  };
  let frameHandle = requestAnimationFrame(tick);

  // The streaming item is the view's last article; a commit records what it showed. Not what a visually hidden live
  // region holds: Run.Text announces the settled answer there once, and that is not more text on screen.
  const shownLength = (element: Element | undefined): number => {
    if (element === undefined) return 0;
    let length = element.textContent?.length ?? 0;
    for (const region of element.querySelectorAll('[aria-live]')) length -= region.textContent?.length ?? 0;
    return length;
  };
  const lastShown = (): { length: number; status: string } => {
    const articles = host.container.querySelectorAll('article');
    const last = articles[articles.length - 1];
    if (contender === 'session-view')
      return { length: shownLength(last), status: last?.getAttribute('data-state') ?? '' };
    const list = host.container.firstElementChild;
    return {
      length: last?.getAttribute('data-role') === 'assistant' ? (last.textContent?.length ?? 0) : 0,
      status: list?.getAttribute('data-status') ?? '',
    };
  };
  const commits: SessionCommit[] = [];
  let streaming = false;
  let reactRenderMs = 0;
  let mountCommits = 0;
  let resolveMounted!: () => void;
  const mounted = new Promise<void>((resolve) => (resolveMounted = resolve));
  const onRender = (_id: string, _phase: string, actualDuration: number) => {
    if (!streaming) {
      mountCommits += 1;
      resolveMounted();
      return;
    }
    reactRenderMs += actualDuration;
    commits.push({ frame, ...lastShown() });
  };

  // useChat's side: what it holds after each commit, and the history's messages handed over as new objects (the
  // new run's two messages come after them).
  const probe = { messages: [] as readonly UIMessage[], status: '', changed: 0, counting: false };
  let sendQuestion: (() => void) | undefined;
  const report: ChatReport = {
    onCommit: (messages, status) => {
      if (probe.counting)
        probe.changed += changedByKey(probe.messages, messages.slice(0, initial.length), (message) => message.id);
      probe.messages = messages;
      probe.status = status;
    },
    onReady: (send) => (sendQuestion = send),
  };
  const view =
    contender === 'session-view' ? (
      <SessionView session={controller} style={{ height: HEIGHT }} />
    ) : (
      <ChatList transport={chunkTransport(deltas, source)} initial={initial} report={report} />
    );

  const root = host.createRoot(host.container);
  const mountStart = performance.now();
  root.render(
    <Profiler id="session" onRender={onRender}>
      {view}
    </Profiler>,
  );
  await mounted;
  const firstPaint = await nextPaint();
  const initialRenderMs = firstPaint - mountStart;
  const commitsAtPaint = mountCommits;
  // Let the virtualiser measure and the scroll settle before counting what is mounted.
  await sleep(500);
  const domNodesAfterMount = document.querySelectorAll('*').length;

  // Changes inside history items already on screen: text, attributes or children of an earlier article.
  const lastArticle = () => {
    const articles = host.container.querySelectorAll('article');
    return articles[articles.length - 1];
  };
  let settledMutations = 0;
  const observer = new MutationObserver((records) => {
    const live = lastArticle();
    for (const record of records) {
      const article = (record.target instanceof Element ? record.target : record.target.parentElement)?.closest(
        'article',
      );
      // Articles added or removed by the virtualiser are mounts, not re-renders; the streaming entry is expected to change.
      if (article === null || article === undefined || article === live) continue;
      if (contender === 'session-view' && article.getAttribute('data-state') !== 'settled') continue;
      settledMutations += 1;
    }
  });

  // Entries of the history handed over as new objects while the run streams.
  let settledChanged = 0;
  let previousEntries = controller.getState().entries;
  const historyKeys = new Set(previousEntries.map((entry) => entry.key));
  const stopWatch = controller.subscribe(() => {
    const entries = controller.getState().entries;
    settledChanged += changedByKey(
      previousEntries,
      entries,
      (entry) => entry.key,
      (entry) => !historyKeys.has(entry.key),
    );
    previousEntries = entries;
  });

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const isDone = () =>
    contender === 'session-view'
      ? controller.getState().entries.at(-1)?.status === 'settled' &&
        !historyKeys.has(controller.getState().entries.at(-1)!.key)
      : probe.status === 'ready' &&
        probe.messages.length === initial.length + 2 &&
        textOf(probe.messages.at(-1)!) === answer;
  const poll = setInterval(() => {
    if (isDone()) resolveDone();
  }, 20);

  const stopLongTasks = host.watchLongTasks();
  observer.observe(host.container, { subtree: true, childList: true, characterData: true, attributes: true });
  streaming = true;
  probe.counting = true;
  const framesAtStart = frame;
  const streamStart = performance.now();
  if (contender === 'session-view') controller.send(QUESTION);
  else if (sendQuestion === undefined) throw new Error('useChat: no way to send yet');
  else sendQuestion();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`${contender}: not settled within ${options.timeoutMs} ms (${commits.length} commits)`)),
          options.timeoutMs,
        );
      }),
    ]);
    // Let the settled commit paint, and a last throttled commit land.
    await sleep(150);
  } finally {
    clearTimeout(timer);
    clearInterval(poll);
    cancelAnimationFrame(frameHandle);
    stopWatch();
  }
  const streamMs = (lastDelivery || performance.now()) - streamStart;
  const framesWhileStreaming = frame - framesAtStart;
  streaming = false;
  observer.disconnect();
  const longTasks = stopLongTasks();
  const domNodesAtEnd = document.querySelectorAll('*').length;
  const contentOk = lastArticle()?.textContent?.includes(answer) === true;
  root.unmount();
  controller.dispose();

  const perFrame = commitsPerFrame(commits);
  return {
    contender,
    runs: options.runs,
    items: contender === 'session-view' ? history.entries.length : initial.length,
    initialRenderMs: Math.round(initialRenderMs),
    mountCommits: commitsAtPaint,
    domNodesAfterMount,
    domNodesAtEnd,
    commitsWhileStreaming: commits.length,
    maxCommitsPerFrame: perFrame.max,
    maxMotionCommitsPerFrame: perFrame.maxMotion,
    framesWhileStreaming,
    settledChanged: contender === 'session-view' ? settledChanged : probe.changed,
    settledMutations,
    reactRenderMs: Math.round(reactRenderMs),
    streamMs: Math.round(streamMs),
    longTasks: longTasks.count,
    longTaskMs: Math.round(longTasks.totalMs),
    contentOk,
  };
}
