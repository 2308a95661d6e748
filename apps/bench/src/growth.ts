import { check, log, median, timeMs, writePartResult } from './harness.js';
import { reduceRun, type RunEvent } from '@kestrel/core';
import { decodeAndParse, kitPipeline, reduceOnly, startedState } from './pipeline.js';
import { measureMarkdownParagraphs } from './markdown-growth.js';
import { createSyntheticStream } from './synthetic-stream.js';

/*
 * Part 5: cost per event as streams grow, through decode → parse → reduce and through the reducer alone. Flat
 * means the ratios stay near 1; quadratic behaviour (copying the text or the event list per delta) would show
 * as ratios of about 10 and 100.
 */
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);

interface SizeResult {
  readonly deltas: number;
  readonly events: number;
  readonly bytes: number;
  readonly pipelineNsPerEvent: number;
  readonly reducerNsPerEvent: number;
}

// Warm the JIT on a small stream first, so the 10k figure measures steady state rather than compilation.
const warm = createSyntheticStream({ deltas: 10_000 });
for (let i = 0; i < 5; i++) reduceOnly(await decodeAndParse(warm.chunks));

const ROUNDS = 3;
const inputs = [];
for (const deltas of SIZES) {
  const stream = createSyntheticStream({ deltas });
  inputs.push({
    deltas,
    stream,
    events: await decodeAndParse(stream.chunks),
    pipeline: [] as number[],
    reducer: [] as number[],
  });
}
/*
 * One sample processes about the same number of events at every size (a 10k stream 30 times, a 1M stream once),
 * and sizes take turns round by round, so a burst of load elsewhere on the machine hits all sizes alike.
 */
const repeats = (deltas: number, target: number) => Math.max(1, Math.round(target / deltas));
for (let round = 0; round < ROUNDS; round++) {
  for (const input of inputs) {
    const runs = repeats(input.deltas, 300_000);
    let settled = true;
    const ms = await timeMs(async () => {
      for (let i = 0; i < runs; i++) settled &&= (await kitPipeline(input.stream.chunks)).phase === 'settled';
    });
    check(settled, `the ${input.deltas}-delta stream settled`);
    input.pipeline.push((ms * 1e6) / (runs * input.stream.events));
    const reduceRuns = repeats(input.deltas, 1_000_000);
    const reduceMs = await timeMs(() => {
      for (let i = 0; i < reduceRuns; i++) reduceOnly(input.events);
    });
    input.reducer.push((reduceMs * 1e6) / (reduceRuns * input.events.length));
  }
}
const results: SizeResult[] = inputs.map((input) => {
  const result: SizeResult = {
    deltas: input.deltas,
    events: input.stream.events,
    bytes: input.stream.bytes,
    pipelineNsPerEvent: Math.round(median(input.pipeline)),
    reducerNsPerEvent: Math.round(median(input.reducer)),
  };
  log(
    `growth: ${result.deltas} deltas: ${result.pipelineNsPerEvent} ns/event through the pipeline, ${result.reducerNsPerEvent} ns/event in the reducer`,
  );
  return result;
});

/*
 * Within one pass over the largest stream: the time per tenth of the events. A cost that grows with what was
 * already received (copying the text or the event list) would make the last tenth several times the first;
 * this holds the machine's state (caches, heap size) the same for every tenth, unlike comparing sizes.
 */
function deciles(events: readonly RunEvent[]): number[] {
  const times: number[] = [];
  const tenth = Math.floor(events.length / 10);
  let state = startedState();
  let start = performance.now();
  for (let i = 0; i < tenth * 10; i++) {
    state = reduceRun(state, events[i]!);
    if ((i + 1) % tenth === 0) {
      const now = performance.now();
      times.push(now - start);
      start = now;
    }
  }
  return times;
}
const largest = inputs.at(-1)!;
const decileRuns = [deciles(largest.events), deciles(largest.events), deciles(largest.events)];
const decileMs = decileRuns[0]!.map((_, i) => Number(median(decileRuns.map((run) => run[i]!)).toFixed(1)));
const lastToFirstDecile = Number((decileMs.at(-1)! / decileMs[0]!).toFixed(2));
log(
  `growth: reducer over ${largest.deltas} deltas, ms per tenth: ${decileMs.join(' ')} (last/first ${lastToFirstDecile})`,
);

const base = results[0]!;
const ratios = results.slice(1).map((result) => ({
  label: `${result.deltas}/${base.deltas}`,
  pipeline: Number((result.pipelineNsPerEvent / base.pipelineNsPerEvent).toFixed(2)),
  reducer: Number((result.reducerNsPerEvent / base.reducerNsPerEvent).toFixed(2)),
}));
const markdownParagraphs = measureMarkdownParagraphs();
for (const growth of markdownParagraphs)
  log(
    `growth: <MarkdownText>, one paragraph (${growth.paragraph}), ms per 1,000 characters at ${growth.lengths.join(' / ')}: ${growth.msPerThousand.join(' / ')} (${growth.ratio})`,
  );
writePartResult({
  sizes: results,
  ratios,
  reducerDeciles: { deltas: largest.deltas, ms: decileMs, lastToFirst: lastToFirstDecile },
  markdownParagraphs,
});
