import type { RunViewContender } from './render/runview-trial-types.js';
import type { RunViewContenderResult } from './render/runview-results.js';
import type { Rate } from './render/trial-types.js';
import type { BenchResults } from './summary.js';

/** `not measured`: the part that measures it is absent from this run, or failed (the reason is printed). */
export type Verdict = 'MET' | 'NOT MET' | 'not measured';

/** One target of issue 17 (items 1 to 7) or of issue 18's benchmark (item 18) as `pnpm bench` prints it. */
export interface TargetLine {
  /** The issue's item number (1 to 7), or 18 for issue 18's benchmark. */
  readonly item: number;
  readonly what: string;
  /** The measured figures behind the ratio, e.g. "13.0 → 13.5 ms (min 1.0, max 1.1)". */
  readonly figure: string;
  /** The compared figure: a ratio, a count or ms. */
  readonly ratio: string;
  readonly target: string;
  readonly verdict: Verdict;
  /** Why it was not measured. */
  readonly note?: string;
}

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : String(value));
const verdict = (met: boolean): Verdict => (met ? 'MET' : 'NOT MET');

function absent(item: number, what: string, target: string, note: string): TargetLine {
  return { item, what, figure: '-', ratio: '-', target, verdict: 'not measured', note };
}

/** What a full-view row names when the answer is one long block (BENCH_ANSWER). */
const ANSWER_NAMES = { code: 'code block', table: 'table', list: 'list', lines: 'paragraph of lines' } as const;

const VIEW_NAMES: Record<RunViewContender, string> = {
  'runview-plain': '<RunView> plain text',
  'runview-markdown': '<RunView> + @kestrel/react/markdown',
  streamdown: 'streamdown 2.7.1',
  'useChat-throttle50': 'useChat experimental_throttle 50',
};

/** "median (min–max)" of a figure over the rounds. */
function ranged(spread: { median: number; min: number; max: number }, digits: number, unit = ''): string {
  return `${fmt(spread.median, digits)}${unit} (${fmt(spread.min, digits)}–${fmt(spread.max, digits)})`;
}

function viewTargets(results: BenchResults): TargetLine[] {
  const part = results.runView;
  const why = results.partErrors['render-runview'] ?? 'the full-view part did not run';
  const find = (name: RunViewContender): RunViewContenderResult | undefined =>
    part?.contenders.find((entry) => entry.contender === name);
  const lines: TargetLine[] = [];
  const ours: RunViewContender[] = ['runview-plain', 'runview-markdown'];
  const streamdown = find('streamdown');
  const useChat = find('useChat-throttle50');
  for (const name of ours) {
    const view = find(name);
    // The issue's targets are for the markdown answer; a run of one long block (BENCH_ANSWER) says so on every row.
    const kind = part?.answer.kind ?? 'markdown';
    const label = `${VIEW_NAMES[name]}${kind === 'markdown' ? '' : ` (one ${ANSWER_NAMES[kind]})`}`;
    if (view === undefined) {
      lines.push(absent(1, `${label}: ms per frame, last / first 10%`, '≤ 1.3', why));
      lines.push(absent(1, `${label}: long tasks > 50 ms per run`, '≤ 2', why));
      lines.push(absent(1, `${label}: lag from the last delta to the settled paint`, '≤ 100 ms', why));
      lines.push(absent(2, `${label}: delta-to-paint latency p95`, '≤ 50 ms', why));
      lines.push(absent(2, `${label}: commits / useChat throttle 50`, '≤ 1', why));
      lines.push(absent(2, `${label}: main-thread time / useChat throttle 50`, '≤ 1', why));
      continue;
    }
    lines.push({
      item: 1,
      what: `${label}: ms per frame, last / first 10%`,
      figure: `${fmt(view.firstTenthMsPerFrame.median, 1)} → ${fmt(view.lastTenthMsPerFrame.median, 1)} ms`,
      ratio: ranged(view.growth, 2),
      target: '≤ 1.3',
      verdict: verdict(view.growth.median <= 1.3),
    });
    lines.push({
      item: 1,
      what: `${label}: long tasks > 50 ms per run`,
      figure: `${fmt(view.longTaskMs.median, 0)} ms in long tasks`,
      ratio: ranged(view.longTasks, 0),
      target: '≤ 2',
      verdict: verdict(view.longTasks.median <= 2),
    });
    lines.push({
      item: 1,
      what: `${label}: lag from the last delta to the settled paint`,
      figure: `${ranged(view.lagAfterLastDeltaMs, 0, ' ms')}`,
      ratio: `${fmt(view.lagAfterLastDeltaMs.median, 0)} ms`,
      target: '≤ 100 ms',
      verdict: verdict(view.lagAfterLastDeltaMs.median <= 100),
    });
    if (streamdown !== undefined) {
      const beats = (a: number, b: number) => a < b || (a === 0 && b === 0);
      const compare = [
        ['ms-per-frame growth', view.growth.median, streamdown.growth.median, 2],
        ['long tasks', view.longTasks.median, streamdown.longTasks.median, 0],
        ['lag after the last delta (ms)', view.lagAfterLastDeltaMs.median, streamdown.lagAfterLastDeltaMs.median, 0],
      ] as const;
      for (const [figureName, mine, theirs, digits] of compare)
        lines.push({
          item: 1,
          what: `${label} beats streamdown: ${figureName}`,
          figure: `${fmt(mine, digits)} vs ${fmt(theirs, digits)}`,
          ratio: theirs === 0 ? (mine === 0 ? 'both 0' : '-') : fmt(mine / theirs),
          target: '< streamdown',
          verdict: verdict(beats(mine, theirs)),
        });
    } else lines.push(absent(1, `${label} beats streamdown`, '< streamdown', 'streamdown did not run'));
    lines.push({
      item: 2,
      what: `${label}: delta-to-paint latency p95`,
      figure: `p50 ${fmt(view.deltaToPaintP50Ms.median, 0)} ms`,
      ratio: ranged(view.deltaToPaintP95Ms, 0, ' ms'),
      target: '≤ 50 ms',
      verdict: verdict(view.deltaToPaintP95Ms.median <= 50),
    });
    if (useChat !== undefined) {
      lines.push({
        item: 2,
        what: `${label}: commits / useChat throttle 50`,
        figure: `${fmt(view.commits.median, 0)} vs ${fmt(useChat.commits.median, 0)}`,
        ratio: fmt(view.commits.median / useChat.commits.median),
        target: '≤ 1',
        verdict: verdict(view.commits.median <= useChat.commits.median),
      });
      lines.push({
        item: 2,
        what: `${label}: main-thread time / useChat throttle 50`,
        figure: `${fmt(view.mainThreadMs.median, 0)} vs ${fmt(useChat.mainThreadMs.median, 0)} ms`,
        ratio: fmt(view.mainThreadMs.median / useChat.mainThreadMs.median),
        target: '≤ 1',
        verdict: verdict(view.mainThreadMs.median <= useChat.mainThreadMs.median),
      });
    } else lines.push(absent(2, `${label} / useChat throttle 50`, '≤ 1', 'useChat throttle 50 did not run'));
  }
  const markdown = find('runview-markdown');
  lines.push(
    markdown === undefined
      ? absent(1, 'markdown shows every heading, code block and table of the answer', 'all', why)
      : {
          item: 1,
          what: 'markdown shows every heading, code block and table of the answer',
          figure: markdown.contentDetail[0] ?? '-',
          ratio: `${markdown.contentDetail.length} rounds`,
          target: 'all',
          verdict: verdict(markdown.contentOk),
        },
  );
  return lines;
}

/** The 10k one-word trial of part 2: the kit at its defaults against useChat throttle 50, at each rate. */
function commitTargets(results: BenchResults): TargetLine[] {
  const trials = results.render?.chromium?.trials;
  if (trials === undefined)
    return [
      absent(
        2,
        'one-word stream: kit commits and main-thread time / useChat throttle 50',
        '≤ 1',
        results.partErrors['render-chromium'] ?? 'the Chromium commit part did not run',
      ),
    ];
  const rateName = (rate: Rate) => (rate === 'burst' ? 'as fast as possible' : `${rate} events/s`);
  return [...new Set(trials.map((trial) => trial.rate))].flatMap((rate) => {
    const kit = trials.find((trial) => trial.contender === 'kit' && trial.rate === rate);
    const them = trials.find((trial) => trial.contender === 'useChat-throttle50' && trial.rate === rate);
    if (kit === undefined || them === undefined) return [];
    return [
      {
        item: 2,
        what: `one-word stream, ${rateName(rate)}: kit commits / useChat throttle 50`,
        figure: `${fmt(kit.commits, 0)} vs ${fmt(them.commits, 0)}`,
        ratio: fmt(kit.commits / them.commits),
        target: '≤ 1',
        verdict: verdict(kit.commits <= them.commits),
      },
      {
        item: 2,
        what: `one-word stream, ${rateName(rate)}: kit main-thread time / useChat throttle 50`,
        figure: `${fmt(kit.mainThreadMs, 0)} vs ${fmt(them.mainThreadMs, 0)} ms`,
        ratio: fmt(kit.mainThreadMs / them.mainThreadMs),
        target: '≤ 1',
        verdict: verdict(kit.mainThreadMs <= them.mainThreadMs),
      },
    ];
  });
}

/**
 * The same case measured in Chromium (throughput-chromium.ts), as context beside Node's judged figure: the kit
 * against the array floor, and that floor itself reading the chunks through a `ReadableStream`.
 */
function inChromium(results: BenchResults, label: string): string {
  const c = results.throughputChromium?.cases.find((measured) => measured.label === label);
  return c === undefined
    ? ''
    : `; in Chromium ${fmt(c.ratioToFloor)} (the floor itself reading the stream: ${fmt(c.streamFloorToFloor)})`;
}

function throughputTargets(results: BenchResults): TargetLine[] {
  const t = results.throughput;
  const why = results.partErrors.throughput ?? 'the throughput part did not run';
  const line = (what: string, figure: { ratioToFloor: number } | undefined, note: string, context = ''): TargetLine =>
    figure === undefined
      ? absent(3, what, '≥ 0.5', t === undefined ? why : note)
      : {
          item: 3,
          what,
          figure: `kit / floor, same bytes and chunking${context}`,
          ratio: fmt(figure.ratioToFloor),
          target: '≥ 0.5',
          verdict: verdict(figure.ratioToFloor >= 0.5),
        };
  return [
    line('pipeline throughput / floor, text deltas in 64 KiB chunks', t, why),
    ...['mixed stream, 64 KiB chunks', 'text stream, one event per chunk', 'mixed stream, one event per chunk'].map(
      (label) =>
        line(
          `pipeline throughput / floor, ${label}`,
          t?.cases?.find((c) => c.label === label),
          `the throughput part has no "${label}" case`,
          inChromium(results, label),
        ),
    ),
  ];
}

function proxyTargets(results: BenchResults): TargetLine[] {
  const p = results.proxy;
  const why = results.partErrors.proxy ?? 'the proxy part did not run';
  const relay = '100k-event stream on loopback';
  if (p === undefined)
    return [
      absent(4, `proxy throughput / plain pipe proxy, ${relay}`, '≥ 0.5', why),
      absent(4, 'proxy forwards whole chunks: chunks received / through the plain pipe', '≤ 2', why),
      absent(4, `heap per idle open stream at 200 streams`, '≤ 16 KB', why),
      absent(4, 'heap retained per stream after the streams close', '≤ 1 KB', why),
    ];
  const upstreamWrites = Math.ceil(p.streamBytes / p.upstreamWriteBytes);
  return [
    {
      item: 4,
      what: `proxy throughput / plain pipe proxy, ${relay}`,
      figure: `every event validated; / fetch pipe ${fmt(p.ratio.vsFetchPipe)}${
        p.ratio.nodeFetchVsRawPipe === undefined ? '' : `; with nodeFetch ${fmt(p.ratio.nodeFetchVsRawPipe)}`
      }`,
      ratio: fmt(p.ratio.vsRawPipe),
      target: '≥ 0.5',
      verdict: verdict(p.ratio.vsRawPipe >= 0.5),
    },
    {
      item: 4,
      // One write per message would give about events / upstream writes times the plain pipe's chunks.
      what: 'proxy forwards whole chunks: chunks received / through the plain pipe',
      figure: `${fmt(p.chunksReceived.kestrel, 0)} vs ${fmt(p.chunksReceived.rawPipe, 0)} (${upstreamWrites} upstream writes)`,
      ratio: fmt(p.chunksReceived.kestrel / p.chunksReceived.rawPipe),
      target: '≤ 2',
      verdict: verdict(p.chunksReceived.kestrel <= 2 * p.chunksReceived.rawPipe),
    },
    {
      item: 4,
      what: `heap per idle open stream at ${p.idleStreams} streams`,
      figure: `plain pipe ${fmt(p.idle.rawPipe.perStreamKB, 1)} KB${
        p.idle.kestrelNode === undefined ? '' : `; with nodeFetch ${fmt(p.idle.kestrelNode.perStreamKB, 1)} KB`
      }`,
      ratio: `${fmt(p.idle.kestrel.perStreamKB, 1)} KB`,
      target: '≤ 16 KB',
      verdict: verdict(p.idle.kestrel.perStreamKB <= 16),
    },
    {
      item: 4,
      what: 'heap retained per stream after the streams close',
      figure: `plain pipe ${fmt(p.idle.rawPipe.retainedPerStreamKB, 2)} KB`,
      ratio: `${fmt(p.idle.kestrel.retainedPerStreamKB, 2)} KB`,
      target: '≤ 1 KB',
      verdict: verdict(p.idle.kestrel.retainedPerStreamKB <= 1),
    },
  ];
}

function memoryTargets(results: BenchResults): TargetLine[] {
  const structural = results.memory?.find((entry) => entry.retainEvents === 'structural');
  if (structural === undefined)
    return [
      absent(
        5,
        "retainEvents 'structural': retained heap / answer bytes, 1M deltas",
        '≤ 2',
        results.partErrors['memory-structural'] ?? 'no memory entry with retainEvents structural',
      ),
    ];
  /*
   * What the run retains is what it frees when dropped (its retained size): the heap's growth across the run also
   * holds code the engine optimised meanwhile, about 0.1 MiB that stays once the run is gone (docs/performance.md).
   */
  const answer = structural.answerBytes ?? structural.assistantTextChars;
  const growth = structural.ratioToAnswer ?? structural.ratioToAssistantText;
  const retained = structural.ratioFreedToAnswer ?? growth;
  const held = structural.freedOnReleaseBytes ?? structural.retainedHeapBytes;
  // Growth the release did not free: optimised code (about 0.1 MiB), or a leak into module state the freed figure misses.
  const leftBehind = structural.retainedHeapBytes - held;
  return [
    {
      item: 5,
      what: `retainEvents 'structural': heap the run retains (freed when dropped) / answer bytes, ${structural.events.toLocaleString('en-US')} events`,
      figure: `${fmt(held / 2 ** 20)} MiB for ${fmt(answer / 2 ** 20)} MiB of answer (UTF-8); heap growth ${fmt(structural.retainedHeapBytes / 2 ** 20)} MiB, ${fmt(growth)}×, ${fmt(leftBehind / 2 ** 20)} MiB of it left after the drop (≤ 0.25)${
        structural.midStreamBytes === undefined
          ? ''
          : `; mid-stream, text unread: ${fmt(structural.midStreamBytes / 2 ** 20)} MiB, ${fmt(structural.midStreamBytes / answer)}×`
      }`,
      ratio: fmt(retained),
      target: '≤ 2',
      verdict: verdict(retained <= 2 && leftBehind <= 0.25 * 2 ** 20),
    },
  ];
}

function sizeTargets(results: BenchResults): TargetLine[] {
  if (results.size === undefined)
    return [absent(6, 'bundle budgets', 'each within', results.partErrors.size ?? 'the size part did not run')];
  const lines: TargetLine[] = results.size
    .filter((figure) => figure.budgetGzip !== null)
    .map((figure) => ({
      item: 6,
      what: `${figure.label}: gzip, peers out`,
      figure: `ceiling with peers ${figure.ceilingWithPeersGzip === null ? '-' : `${fmt(figure.ceilingWithPeersGzip / 1000, 1)} kB`}: ${fmt(figure.gzipBytesWithPeers / 1000, 1)} kB`,
      ratio: `${fmt(figure.gzipBytes / 1000, 1)} kB`,
      target: `≤ ${fmt(figure.budgetGzip! / 1000, 1)} kB`,
      verdict: verdict(figure.pass === true),
    }));
  if (!results.size.some((figure) => /markdown/i.test(figure.label) && figure.budgetGzip !== null))
    lines.push(
      absent(6, 'the markdown entry: gzip with a budget', 'budgeted', 'no budgeted markdown figure in the size part'),
    );
  return lines;
}

function benchTargets(results: BenchResults): TargetLine[] {
  const rounds = [results.runView?.rounds, results.render?.chromium?.rounds].filter(
    (value): value is number => value !== undefined,
  );
  return [
    rounds.length === 0
      ? absent(7, 'every browser trial repeated in rotated order', '≥ 3 rounds', 'no browser part ran')
      : {
          item: 7,
          what: 'every browser trial repeated in rotated order (medians reported)',
          figure: `full view ${results.runView?.rounds ?? '-'}, one-word stream ${results.render?.chromium?.rounds ?? '-'}`,
          ratio: `${Math.min(...rounds)} rounds`,
          target: '≥ 3 rounds',
          verdict: verdict(Math.min(...rounds) >= 3),
        },
    results.chart === undefined
      ? absent(
          7,
          'chart of per-frame cost over the stream',
          'written',
          results.partErrors.chart ?? 'no full-view figures',
        )
      : {
          item: 7,
          what: 'chart of per-frame cost over the stream',
          figure: results.chart.png ?? results.chart.svg,
          ratio: '-',
          target: 'written',
          verdict: 'MET',
        },
  ];
}

/** Issue 18's benchmark: a 1,000-run conversation with one more run streaming, `<SessionView>` against useChat. */
function sessionTargets(results: BenchResults): TargetLine[] {
  const part = results.session;
  const why = results.partErrors['render-session'] ?? 'the conversation part did not run';
  const kit = part?.contenders.find((entry) => entry.contender === 'session-view');
  const useChat = part?.contenders.find((entry) => entry.contender === 'useChat-throttle50');
  const runs = part === undefined ? '1,000' : part.runs.toLocaleString('en-US');
  if (kit === undefined)
    return [
      absent(18, `<SessionView>, ${runs} runs: settled entries re-rendered while a run streams`, '0', why),
      absent(18, `<SessionView>, ${runs} runs: max motion commits per frame while streaming`, '≤ 1', why),
      absent(18, `<SessionView>, ${runs} runs: DOM nodes mounted / useChat`, '< useChat', why),
    ];
  const rerendered = Math.max(kit.settledChanged.max, kit.settledMutations.max);
  return [
    {
      item: 18,
      what: `<SessionView>, ${runs} runs: settled entries re-rendered while a run streams`,
      figure: `entries changed ${ranged(kit.settledChanged, 0)}, DOM mutations ${ranged(kit.settledMutations, 0)}`,
      ratio: `${fmt(rerendered, 0)} (worst round)`,
      target: '0',
      verdict: verdict(rerendered === 0),
    },
    {
      item: 18,
      what: `<SessionView>, ${runs} runs: max motion commits per frame while streaming`,
      figure: `${ranged(kit.commitsWhileStreaming, 0)} commits, max ${fmt(kit.maxCommitsPerFrame.max, 0)} of any kind in a frame`,
      ratio: `${fmt(kit.maxMotionCommitsPerFrame.max, 0)} (worst round)`,
      target: '≤ 1',
      verdict: verdict(kit.maxMotionCommitsPerFrame.max <= 1),
    },
    useChat === undefined
      ? absent(18, `<SessionView>, ${runs} runs: DOM nodes mounted / useChat`, '< useChat', 'useChat did not run')
      : {
          item: 18,
          what: `<SessionView>, ${runs} runs: DOM nodes mounted / useChat`,
          figure: `${fmt(kit.domNodesAfterMount.median, 0)} vs ${fmt(useChat.domNodesAfterMount.median, 0)}; first paint ${fmt(kit.initialRenderMs.median, 0)} vs ${fmt(useChat.initialRenderMs.median, 0)} ms`,
          ratio: fmt(kit.domNodesAfterMount.median / useChat.domNodesAfterMount.median, 3),
          target: '< useChat',
          verdict: verdict(kit.domNodesAfterMount.median < useChat.domNodesAfterMount.median),
        },
  ];
}

/** Every target of issue 17 with its figure and verdict; parts absent from the run give `not measured` lines. */
export function targetLines(results: BenchResults): TargetLine[] {
  return [
    ...viewTargets(results),
    ...commitTargets(results),
    ...throughputTargets(results),
    ...proxyTargets(results),
    ...memoryTargets(results),
    ...sizeTargets(results),
    ...benchTargets(results),
    ...sessionTargets(results),
  ].sort((a, b) => a.item - b.item);
}
