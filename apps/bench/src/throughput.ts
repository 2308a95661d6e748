import { check, interleave, log, MB, median, medianRatio, writePartResult } from './harness.js';
import {
  decodeAndParse,
  decodeOnly,
  floorPipeline,
  kitPipeline,
  kitPipelinePerMessage,
  reduceOnly,
  runClientPipeline,
} from './pipeline.js';
import { createSyntheticStream } from './synthetic-stream.js';
import { measureCase, THROUGHPUT_CASES, THROUGHPUT_DELTAS, type ThroughputCase } from './throughput-cases.js';

/*
 * Part 1: decode → parse → reduce over one synthetic stream, against a floor measured on the same bytes in the
 * same process: TextDecoder + split on blank lines + JSON.parse, nothing else.
 */
const DELTAS = THROUGHPUT_DELTAS;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6);

const stream = createSyntheticStream({ deltas: DELTAS });
log(`throughput: ${stream.events} events, ${(stream.bytes / MB).toFixed(2)} MiB in ${stream.chunks.length} chunks`);

const settled = await kitPipeline(stream.chunks);
check(
  settled.phase === 'settled' && settled.status === 'COMPLETED',
  `the kit settled COMPLETED (got ${settled.phase})`,
);
check(
  settled.events.length === stream.events && settled.draftText.length === stream.textLength,
  'every event and every delta arrived',
);
check(floorPipeline(stream.chunks) === stream.events, 'the floor saw every event');

// Warm-up: the kit keeps reaching steady state (JIT tiers, heap sizing) for several passes; the floor needs fewer.
const contenders = {
  floor: () => floorPipeline(stream.chunks),
  kit: () => kitPipeline(stream.chunks),
  perMessage: () => kitPipelinePerMessage(stream.chunks),
  runClient: () => runClientPipeline(stream.chunks),
};
for (const [name, run] of Object.entries(contenders)) {
  if (name === 'floor') continue;
  const state = (await run()) as Awaited<ReturnType<typeof kitPipeline>>;
  check(state.phase === 'settled' && state.events.length === stream.events, `${name} settled with every event`);
}
await interleave(WARMUP, contenders);
const times = await interleave(ROUNDS, contenders);

// Where the time goes, stage by stage (same bytes, separate passes).
const parsed = await decodeAndParse(stream.chunks);
const stages = await interleave(Math.max(3, ROUNDS - 2), {
  decode: () => decodeOnly(stream.chunks),
  decodeParse: () => decodeAndParse(stream.chunks),
  reduce: () => reduceOnly(parsed),
});

const rate = (ms: number) => ({
  ms: round(ms),
  eventsPerSecond: Math.round(stream.events / (ms / 1000)),
  mbPerSecond: round(stream.bytes / MB / (ms / 1000)),
});
function round(value: number, digits = 2) {
  return Number(value.toFixed(digits));
}
const ratio = medianRatio(times.floor, times.kit);
const result = {
  stream: {
    deltas: DELTAS,
    events: stream.events,
    bytes: stream.bytes,
    chunks: stream.chunks.length,
    textLength: stream.textLength,
  },
  rounds: ROUNDS,
  floor: rate(median(times.floor)),
  kit: rate(median(times.kit)),
  /** Kit throughput as a share of the floor's, median of per-round ratios. Target ≥ 0.5. */
  ratioToFloor: round(ratio, 3),
  target: 0.5,
  pass: ratio >= 0.5,
  /** The same with `decodeSSE`, one await per message. */
  perMessage: { ...rate(median(times.perMessage)), ratioToFloor: round(medianRatio(times.floor, times.perMessage), 3) },
  /** The whole run client (fetch from memory, follow-run, store with its frame scheduler), until `result`. */
  runClient: { ...rate(median(times.runClient)), ratioToFloor: round(medianRatio(times.floor, times.runClient), 3) },
  stagesMs: {
    decode: round(median(stages.decode)),
    decodeParse: round(median(stages.decodeParse)),
    reduceAlone: round(median(stages.reduce)),
  },
  /** The same kit-against-floor measurement on other streams and chunkings (issue 17, target 3). */
  cases: await measureCases(),
  rawMs: times,
};
log(
  `throughput: kit ${result.kit.eventsPerSecond} ev/s, floor ${result.floor.eventsPerSecond} ev/s, ratio ${result.ratioToFloor}`,
);
for (const c of result.cases) {
  log(
    `throughput (${c.label}): kit ${c.kit.eventsPerSecond} ev/s, floor ${c.floor.eventsPerSecond} ev/s, ratio ${c.ratioToFloor} (target ≥ ${c.target}: ${c.pass ? 'met' : 'NOT met'}); ${c.ratioToStreamFloor} of the floor reading a ReadableStream; the stream's read() calls alone take ${c.streamReadsPerFloor}× the floor's time`,
  );
}
writePartResult(result);

/** Every event kind, and one event per chunk: each stream against its own floor (same bytes, same chunks). */
async function measureCases(): Promise<ThroughputCase[]> {
  const measured: ThroughputCase[] = [];
  for (const { label, options } of THROUGHPUT_CASES) measured.push(await measureCase(label, options, ROUNDS, WARMUP));
  return measured;
}
