import type { BrowserTrialResult } from './render/render-browser.js';
import type { JsdomTrialResult } from './render/render-jsdom.js';
import type { RunViewPartResult } from './render/runview-results.js';
import type { SessionPartResult } from './render/session-results.js';
import type { Contender, Rate, TrialResult } from './render/trial-types.js';
import type { Spread } from './rounds.js';
import { kB, type SizeFigure } from './size/measure-size.js';
import { targetLines } from './targets.js';
import type { ThroughputCase } from './throughput-cases.js';

interface Rate3 {
  readonly ms: number;
  readonly eventsPerSecond: number;
  readonly mbPerSecond: number;
}

type ProxyContender = 'kestrel' | 'fetchPipe' | 'rawPipe';
/** createKestrelProxy with `fetch: nodeFetch`: absent from results written before it was measured. */
type OptionalProxyContender = 'kestrelNode';

interface IdleFigures {
  readonly perStreamKB: number;
  readonly retainedPerStreamKB: number;
}

/** What the proxy part (apps/bench/src/proxy/proxy-part.ts, issue 17 item 4) writes; the fields the summary reads. */
export interface ProxyResult {
  readonly events: number;
  readonly streamBytes: number;
  /** Size of the upstream's writes: the batching the browser should receive. */
  readonly upstreamWriteBytes: number;
  /** createKestrelProxy's throughput / a plain pipe's (`vsRawPipe`: node:http piped), median of per-round ratios. */
  readonly ratio: { readonly vsRawPipe: number; readonly vsFetchPipe: number; readonly nodeFetchVsRawPipe?: number };
  /** Chunks the browser side received through each relay. */
  readonly chunksReceived: Readonly<Record<ProxyContender, number>> &
    Readonly<Partial<Record<OptionalProxyContender, number>>>;
  readonly idleStreams: number;
  /** Heap per idle open stream, and per stream once they all closed. */
  readonly idle: Readonly<Record<ProxyContender, IdleFigures>> &
    Readonly<Partial<Record<OptionalProxyContender, IdleFigures>>>;
}

/**
 * One `pnpm bench` run. Every part is optional: a part that is absent or failed (its error in `partErrors`) is
 * printed as "not measured", never as a figure.
 */
export interface BenchResults {
  readonly startedAt: string;
  readonly durationS: number;
  readonly command: string;
  readonly machine: {
    readonly nproc: number;
    readonly cpu: string;
    readonly freeH: string;
    readonly node: string;
    readonly platform: string;
    readonly chromium: string | null;
    readonly loadAverageBefore: number[];
    readonly loadAverageAfter: number[];
  };
  /** Part name → why it produced no figures. */
  readonly partErrors: Readonly<Record<string, string>>;
  /** Item 3's one-event-per-chunk cases measured in Chromium (throughput-chromium.ts): reported, not judged. */
  readonly throughputChromium?: {
    readonly browser: string;
    readonly rounds: number;
    readonly cases: readonly ThroughputCase[];
  };
  readonly throughput?: {
    readonly stream: { deltas: number; events: number; bytes: number; chunks: number; textLength: number };
    readonly floor: Rate3;
    readonly kit: Rate3;
    readonly ratioToFloor: number;
    readonly target: number;
    readonly pass: boolean;
    readonly perMessage: Rate3 & { readonly ratioToFloor: number };
    readonly runClient: Rate3 & { readonly ratioToFloor: number };
    readonly stagesMs: { decode: number; decodeParse: number; reduceAlone: number };
    /** Other streams and chunkings (issue 17 target 3): each against its own floor on the same bytes and chunks. */
    readonly cases?: readonly {
      label: string;
      stream: { events: number; bytes: number; chunks: number };
      floor: { ms: number; eventsPerSecond: number };
      kit: { ms: number; eventsPerSecond: number };
      ratioToFloor: number;
      ratioToStreamFloor: number;
      /** The stream's `read()` calls alone, as a share of the floor's whole time (context). */
      streamReadsPerFloor?: number;
      target: number;
      pass: boolean;
    }[];
  };
  readonly growth?: {
    readonly sizes: {
      deltas: number;
      events: number;
      bytes: number;
      pipelineNsPerEvent: number;
      reducerNsPerEvent: number;
    }[];
    readonly ratios: { label: string; pipeline: number; reducer: number }[];
    readonly reducerDeciles: { deltas: number; ms: number[]; lastToFirst: number };
    /** Absent in results written before it was measured. */
    readonly markdownParagraphs?: {
      paragraph: string;
      lengths: number[];
      msPerThousand: number[];
      ratio: number;
    }[];
  };
  readonly memory?: {
    /** `structural`: only structural events kept (issue 17 item 5); absent or `all`: every event. */
    retainEvents?: 'all' | 'structural';
    targetMiB: number;
    streamBytes: number;
    events: number;
    assistantTextChars: number;
    retainedHeapBytes: number;
    ratioToStream: number;
    ratioToAssistantText: number;
    bytesPerEvent: number;
    deltas?: number;
    answerBytes?: number;
    ratioToAnswer?: number;
    answerInMemoryBytes?: number;
    ratioToAnswerInMemory?: number;
    answerTarget?: number;
    answerPass?: boolean;
    freedOnReleaseBytes?: number;
    ratioFreedToAnswer?: number;
    leftBehindBytes?: number;
    /** The run mid-stream (all but `run.completed`, text unread): heap it frees when dropped; / the answer. */
    midStreamBytes?: number;
    ratioMidStreamToAnswer?: number;
  }[];
  readonly size?: SizeFigure[];
  readonly render?: {
    readonly chromium?: {
      environment: 'chromium';
      chromiumVersion: string;
      deltas: number;
      rounds: number;
      /** Medians over the rounds. */
      trials: (BrowserTrialResult & { spread: { commits: Spread; mainThreadMs: Spread } })[];
    };
    readonly jsdom?: { environment: 'jsdom'; deltas: number; trials: JsdomTrialResult[] };
  };
  /** The full `<RunView>` trials (issue 17 item 1). */
  readonly runView?: RunViewPartResult;
  /** The 1,000-run conversation, `<SessionView>` against useChat (issue 18). */
  readonly session?: SessionPartResult;
  readonly proxy?: ProxyResult;
  /** The chart of per-frame cost over the stream, paths relative to the repository. */
  readonly chart?: { readonly svg: string; readonly png: string | null };
}

const MiB = 1024 * 1024;
const fmt = (value: number, digits = 2) => value.toFixed(digits);
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const rateLabel = (rate: Rate) => (rate === 'burst' ? 'as fast as possible' : `${int(rate)} events/s`);

/** A text table: the first column (or, with `left`, every column) padded on the right, the others on the left. */
function table(rows: string[][], align: 'numbers' | 'left' = 'numbers'): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      `  ${row.map((cell, column) => (column === 0 || align === 'left' ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}`.trimEnd(),
    )
    .join('\n');
}

type MainThreadTrial = TrialResult & { readonly mainThreadMs: number };

/** kit / other, for commits and main-thread time, per rate. */
export function renderRatios(trials: readonly MainThreadTrial[]) {
  const find = (contender: Contender, rate: Rate) =>
    trials.find((trial) => trial.contender === contender && trial.rate === rate);
  const rates = [...new Set(trials.map((trial) => trial.rate))];
  const pairs = [
    ['kit', 'useChat'],
    ['kit', 'useChat-throttle50'],
    ['kit-timer50', 'useChat-throttle50'],
  ] as const;
  return rates.flatMap((rate) =>
    pairs.flatMap(([ours, other]) => {
      const kit = find(ours, rate);
      const them = find(other, rate);
      if (kit === undefined || them === undefined) return [];
      return [
        {
          rate,
          ours,
          versus: other,
          commits: kit.commits / them.commits,
          mainThread: kit.mainThreadMs / them.mainThreadMs,
        },
      ];
    }),
  );
}

const notMeasured = (results: BenchResults, part: string, heading: string) =>
  `\n${heading}: not measured (${results.partErrors[part] ?? 'the part did not run'})`;

function throughputSection(results: BenchResults, out: string[]): void {
  const t = results.throughput;
  if (t === undefined) {
    out.push(notMeasured(results, 'throughput', '1. Pipeline throughput'));
    return;
  }

  out.push(
    `\n1. Pipeline throughput: ${int(t.stream.deltas)} text deltas, ${int(t.stream.events)} events, ${fmt(t.stream.bytes / MiB)} MiB (median of interleaved rounds)`,
  );
  out.push(
    table([
      ['', 'events/s', 'MiB/s', 'ms'],
      [
        'floor: TextDecoder + split on blank lines + JSON.parse',
        int(t.floor.eventsPerSecond),
        fmt(t.floor.mbPerSecond),
        fmt(t.floor.ms, 0),
      ],
      [
        'kit: decodeSSEBatches → parseSSEMessage → reduceRun',
        int(t.kit.eventsPerSecond),
        fmt(t.kit.mbPerSecond),
        fmt(t.kit.ms, 0),
      ],
      [
        `  the same, decodeSSE one message per await (${fmt(t.perMessage.ratioToFloor)} of the floor)`,
        int(t.perMessage.eventsPerSecond),
        fmt(t.perMessage.mbPerSecond),
        fmt(t.perMessage.ms, 0),
      ],
      [
        `  the whole run client, fetch to result (${fmt(t.runClient.ratioToFloor)} of the floor)`,
        int(t.runClient.eventsPerSecond),
        fmt(t.runClient.mbPerSecond),
        fmt(t.runClient.ms, 0),
      ],
    ]),
  );
  out.push(
    `  kit / floor throughput: ${fmt(t.ratioToFloor)} (target ≥ ${t.target}: ${t.pass ? 'met' : 'MISSED'}); stages alone: decode ${fmt(t.stagesMs.decode, 0)} ms, decode+parse ${fmt(t.stagesMs.decodeParse, 0)} ms, reduce ${fmt(t.stagesMs.reduceAlone, 0)} ms`,
  );
  for (const c of t.cases ?? []) {
    out.push(
      `  ${c.label} (${int(c.stream.events)} events in ${int(c.stream.chunks)} chunks): kit / floor ${fmt(c.ratioToFloor)} (target ≥ ${c.target}: ${c.pass ? 'met' : 'MISSED'}); kit / floor reading the same ReadableStream ${fmt(c.ratioToStreamFloor)}${c.streamReadsPerFloor === undefined ? '' : `; the read() calls alone ${fmt(c.streamReadsPerFloor)}× the floor's time`}`,
    );
  }
}

function throughputChromiumSection(results: BenchResults, out: string[]): void {
  const t = results.throughputChromium;
  if (t === undefined) {
    out.push(notMeasured(results, 'throughput-chromium', '1b. Pipeline throughput in Chromium'));
    return;
  }
  out.push(
    `\n1b. Pipeline throughput in Chromium ${t.browser}, the same pipeline bundled for a page (reported; item 3 is judged on Node's figures), median of ${t.rounds} interleaved rounds`,
  );
  for (const c of t.cases) {
    out.push(
      `  ${c.label}: kit / floor ${fmt(c.ratioToFloor)}; kit / floor reading the same ReadableStream ${fmt(c.ratioToStreamFloor)}; that floor / the array floor ${fmt(c.streamFloorToFloor)}; the read() calls alone ${fmt(c.streamReadsPerFloor)}× the floor's time`,
    );
  }
}

function renderSection(results: BenchResults, out: string[]): void {
  for (const [part, env] of [
    ['render-chromium', results.render?.chromium],
    ['render-jsdom', results.render?.jsdom],
  ] as const) {
    if (env === undefined) {
      out.push(notMeasured(results, part, `2. Render commits (${part})`));
      continue;
    }
    out.push(
      `\n2. Render commits in ${env.environment}: ${int(env.deltas)} text deltas to one component${'rounds' in env ? `, median of ${env.rounds} rounds in rotated order` : ''}`,
    );
    const rows = [
      [
        'rate',
        'contender',
        'commits',
        'max motion commits/frame',
        'frames',
        'main thread ms',
        'long tasks',
        'long task ms',
        'duration ms',
        'text ok',
      ],
    ];
    for (const trial of env.trials as MainThreadTrial[]) {
      rows.push([
        rateLabel(trial.rate),
        trial.contender,
        int(trial.commits),
        String(trial.maxMotionCommitsPerFrame),
        int(trial.frames),
        int(trial.mainThreadMs),
        String(trial.longTasks),
        int(trial.longTaskMs),
        int(trial.durationMs),
        trial.textComplete ? 'yes' : 'NO',
      ]);
    }
    out.push(table(rows));
    for (const ratio of renderRatios(env.trials)) {
      out.push(
        `  ${rateLabel(ratio.rate)}: ${ratio.ours} / ${ratio.versus}: commits ${fmt(ratio.commits, 3)}, main-thread time ${fmt(ratio.mainThread)}`,
      );
    }
  }
}

function memorySection(results: BenchResults, out: string[]): void {
  if (results.memory === undefined || results.memory.length === 0) {
    out.push(notMeasured(results, 'memory', '3. Memory'));
    return;
  }
  out.push(
    '\n3. Memory: heap a settled run keeps (run client, after GC); mid-stream: before run.completed, text unread',
  );
  const memoryRows = [
    ['stream', 'retain', 'events', 'retained', '× stream bytes', '× assistant text', 'bytes/event', 'mid-stream'],
  ];
  for (const m of results.memory) {
    memoryRows.push([
      `${fmt(m.streamBytes / MiB)} MiB`,
      m.retainEvents ?? 'all',
      int(m.events),
      `${fmt(m.retainedHeapBytes / MiB)} MiB`,
      fmt(m.ratioToStream),
      fmt(m.ratioToAssistantText, 1),
      int(m.bytesPerEvent),
      m.midStreamBytes === undefined ? '-' : `${fmt(m.midStreamBytes / MiB)} MiB`,
    ]);
  }
  out.push(table(memoryRows));
  const everyEvent = results.memory.filter((m) => (m.retainEvents ?? 'all') === 'all');
  const first = everyEvent[0];
  const last = everyEvent.at(-1);
  // BENCH_PARTS=memory-structural runs no every-event size: there is no growth to report then.
  if (first !== undefined && last !== undefined) {
    out.push(
      `  growth: retained per stream byte at ${last.targetMiB} MiB / at ${first.targetMiB} MiB = ${fmt(last.ratioToStream / first.ratioToStream)} (1 = linear; target < 3× the stream)`,
    );
  }
  for (const m of results.memory) {
    if (m.answerTarget === undefined) continue;
    out.push(
      `  ${int(m.deltas ?? 0)} deltas, retainEvents '${m.retainEvents}': the run retains (freed when dropped) ${fmt(m.ratioFreedToAnswer ?? m.ratioToAnswer ?? 0)}× the answer's bytes (target ≤ ${m.answerTarget}: ${m.answerPass === true ? 'met' : 'MISSED'}); heap growth ${fmt(m.ratioToAnswer ?? 0)}×; ${fmt(m.ratioToAnswerInMemory ?? 0)}× the answer as the engine stores it`,
    );
  }
}

function sizeSection(results: BenchResults, out: string[]): void {
  if (results.size === undefined) {
    out.push(notMeasured(results, 'size', '4. Bundle size'));
    return;
  }
  out.push('\n4. Bundle size (esbuild, minified, production, gzip -9)');
  const sizeRows = [
    ['app', 'gz (peers out: React, zod)', 'min', 'gz + zod', 'gz + zod + React', 'budget', 'ceiling with zod'],
  ];
  const limit = (value: number, max: number | null) =>
    max === null ? '-' : `${kB(max)} ${value <= max ? 'ok' : 'OVER'}`;
  for (const s of results.size) {
    sizeRows.push([
      s.label,
      kB(s.gzipBytes),
      kB(s.minBytes),
      kB(s.gzipBytesWithPeers),
      kB(s.gzipBytesWithReact),
      limit(s.gzipBytes, s.budgetGzip),
      limit(s.gzipBytesWithPeers, s.ceilingWithPeersGzip),
    ]);
  }
  out.push(table(sizeRows));
}

function growthSection(results: BenchResults, out: string[]): void {
  if (results.growth === undefined) {
    out.push(notMeasured(results, 'growth', '5. Cost growth'));
    return;
  }
  out.push('\n5. Cost growth: time per event');
  const growthRows = [['deltas', 'pipeline ns/event', 'reducer ns/event']];
  for (const g of results.growth.sizes)
    growthRows.push([int(g.deltas), int(g.pipelineNsPerEvent), int(g.reducerNsPerEvent)]);
  out.push(table(growthRows));
  for (const r of results.growth.ratios)
    out.push(
      `  ${r.label} per event: pipeline ${fmt(r.pipeline)}, reducer ${fmt(r.reducer)} (flat ≈ 1; quadratic would be ≈ ${r.label
        .split('/')
        .map(Number)
        .reduce((a, b) => a / b)})`,
    );
  const d = results.growth.reducerDeciles;
  out.push(
    `  reducer within one ${int(d.deltas)}-delta pass, ms per tenth of the events: ${d.ms.join(' ')} (last / first ${fmt(d.lastToFirst)})`,
  );
  for (const m of results.growth.markdownParagraphs ?? [])
    out.push(
      `  <MarkdownText>, one paragraph (${m.paragraph}), ms per 1,000 characters at ${m.lengths.map(int).join(' / ')} characters: ${m.msPerThousand.map((ms) => fmt(ms)).join(' / ')} (${fmt(m.ratio)}; linear ≈ 1, quadratic ≈ ${fmt(m.lengths.at(-1)! / m.lengths[0]!)})`,
    );
}

const spreadCell = (value: Spread, digits = 0) =>
  `${fmt(value.median, digits)} (${fmt(value.min, digits)}–${fmt(value.max, digits)})`;

function runViewSection(results: BenchResults, out: string[]): void {
  const part = results.runView;
  if (part === undefined) {
    out.push(notMeasured(results, 'render-runview', '6. The full <RunView> in Chromium'));
    return;
  }
  const { answer } = part;
  out.push(
    `\n6. The full view in Chromium: a ${int(answer.chars)}-character ${answer.kind === 'code' ? 'answer that is one code block,' : 'markdown answer'} in ${int(answer.deltas)} deltas at ${int(answer.rate)} events/s; median (min–max) of ${part.rounds} rounds in rotated order`,
  );
  const rows = [
    [
      'contender',
      'ms/frame first 10%',
      'last 10%',
      'last / first',
      'long tasks',
      'lag after last delta ms',
      'delta-to-paint p95 ms',
      'commits',
      'main thread ms',
      'content',
    ],
  ];
  for (const view of part.contenders)
    rows.push([
      view.contender,
      spreadCell(view.firstTenthMsPerFrame, 1),
      spreadCell(view.lastTenthMsPerFrame, 1),
      spreadCell(view.growth, 2),
      spreadCell(view.longTasks),
      spreadCell(view.lagAfterLastDeltaMs),
      spreadCell(view.deltaToPaintP95Ms),
      spreadCell(view.commits),
      spreadCell(view.mainThreadMs),
      view.contentOk ? 'ok' : `WRONG: ${view.contentDetail.find((detail) => detail !== '') ?? ''}`,
    ]);
  out.push(table(rows));
  for (const failure of part.failures)
    out.push(`  round ${failure.round + 1}, ${failure.contender}: FAILED ${failure.error}`);
}

function sessionSection(results: BenchResults, out: string[]): void {
  const part = results.session;
  if (part === undefined) {
    out.push(notMeasured(results, 'render-session', '7. A 1,000-run conversation in Chromium'));
    return;
  }
  out.push(
    `\n7. A ${int(part.runs)}-run conversation in Chromium, then one more run: ${int(part.answer.chars)} characters in ${int(part.answer.deltas)} deltas at ${int(part.answer.rate)} events/s; median (min–max) of ${part.rounds} rounds in rotated order`,
  );
  const rows = [
    [
      'contender',
      'items',
      'first paint ms',
      'DOM nodes mounted',
      'at the end',
      'commits streaming',
      'max commits/frame',
      'max motion commits/frame',
      'history items changed',
      'history DOM mutations',
      'long tasks',
      'main thread ms',
      'answer',
    ],
  ];
  for (const view of part.contenders)
    rows.push([
      view.contender,
      int(view.items),
      spreadCell(view.initialRenderMs),
      spreadCell(view.domNodesAfterMount),
      spreadCell(view.domNodesAtEnd),
      spreadCell(view.commitsWhileStreaming),
      spreadCell(view.maxCommitsPerFrame),
      spreadCell(view.maxMotionCommitsPerFrame),
      spreadCell(view.settledChanged),
      spreadCell(view.settledMutations),
      spreadCell(view.longTasks),
      spreadCell(view.mainThreadMs),
      view.contentOk ? 'shown' : 'NOT SHOWN',
    ]);
  out.push(table(rows));
  for (const failure of part.failures)
    out.push(`  round ${failure.round + 1}, ${failure.contender}: FAILED ${failure.error}`);
}

function targetSection(results: BenchResults, out: string[]): void {
  out.push('\nIssue 17 and 18 targets');
  const rows = [['#', 'what', 'figure', 'ratio', 'target', '']];
  for (const line of targetLines(results))
    rows.push([
      String(line.item),
      line.what,
      line.figure,
      line.ratio,
      line.target,
      line.verdict === 'not measured' ? `not measured: ${line.note ?? ''}` : line.verdict,
    ]);
  out.push(table(rows, 'left'));
}

export function printSummary(results: BenchResults): void {
  const { machine } = results;
  const out: string[] = [];
  out.push(
    `\nKestrel bench, ${results.startedAt}, ${results.durationS} s: ${machine.nproc} cores (${machine.cpu}), node ${machine.node}, chromium ${machine.chromium ?? 'not started'}`,
  );
  out.push(
    `load average before/after: ${machine.loadAverageBefore.map((v) => fmt(v)).join(' ')} / ${machine.loadAverageAfter.map((v) => fmt(v)).join(' ')}`,
  );
  throughputSection(results, out);
  throughputChromiumSection(results, out);
  renderSection(results, out);
  memorySection(results, out);
  sizeSection(results, out);
  growthSection(results, out);
  runViewSection(results, out);
  sessionSection(results, out);
  targetSection(results, out);
  console.log(out.join('\n'));
}
