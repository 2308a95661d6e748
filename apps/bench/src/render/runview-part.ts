import { splitIntoDeltas } from '@kestrel/testing';
import { log, writePartResult } from '../harness.js';
import { browserRounds, runRotatedRounds, type RotatedRounds } from '../rounds.js';
import { benchAnswer } from './bench-answers.js';
import { openBrowserBench, type RunViewTrialResult } from './render-browser.js';
import { summariseContender, type RunViewPartResult } from './runview-results.js';
import { RUNVIEW_CONTENDERS, type RunViewContender } from './runview-trial-types.js';

/*
 * Issue 17 item 1 in real Chromium: a 200 KB markdown answer in 20,000 deltas at 2,000 events/s, rendered by the full
 * `<RunView>` (plain, markdown), streamdown and useChat with `experimental_throttle: 50`. Every contender runs once
 * per round, in an order rotated each round, in a fresh page; the figures are medians over the rounds.
 * BENCH_SCALE (default 1) shrinks the answer and its deltas together, for trying the part out. BENCH_ANSWER=code,
 * table or list streams an answer that is one 200 KB block instead (a model writing a file, listing records or
 * enumerating steps), which never settles until it ends.
 */
const scale = Number(process.env.BENCH_SCALE ?? 1);
if (!(scale > 0 && scale <= 1)) throw new Error(`BENCH_SCALE must be in (0, 1] (got ${process.env.BENCH_SCALE})`);
const rate = 2_000;
const buckets = 20;
const { kind: answer, text } = benchAnswer(Math.round(200_000 * scale));
const deltas = splitIntoDeltas(text, Math.round(20_000 * scale));
const rounds = browserRounds();
const contenders = (process.env.BENCH_RUNVIEW_CONTENDERS?.split(',') ?? RUNVIEW_CONTENDERS) as RunViewContender[];
for (const name of contenders)
  if (!RUNVIEW_CONTENDERS.includes(name))
    throw new Error(`BENCH_RUNVIEW_CONTENDERS: unknown contender ${name} (known: ${RUNVIEW_CONTENDERS.join(', ')})`);

// The stream alone takes deltas / rate seconds; a view that cannot keep up within four times that has failed.
const timeoutMs = Math.round((deltas.length / rate) * 4_000) + 30_000;
const bench = await openBrowserBench();
let collected: RotatedRounds<RunViewContender, RunViewTrialResult>;
try {
  collected = await runRotatedRounds(
    contenders,
    rounds,
    (contender) => bench.runView({ contender, deltas, rate, timeoutMs, buckets }),
    log,
    (result) =>
      `${result.firstTenthMsPerFrame} → ${result.lastTenthMsPerFrame} ms/frame, ${result.longTasks} long tasks, lag ${result.lagAfterLastDeltaMs} ms, p95 ${result.deltaToPaint.p95} ms, ${result.commits} commits, ${result.mainThreadMs} ms main thread${result.contentCheck.ok ? '' : `, CONTENT WRONG: ${result.contentCheck.detail}`}`,
  );
} finally {
  await bench.close();
}
const { samples, failures, orders } = collected;

const result: RunViewPartResult = {
  environment: 'chromium',
  chromiumVersion: bench.version,
  answer: { kind: answer, chars: text.length, deltas: deltas.length, rate, scale },
  rounds,
  buckets,
  orders,
  failures,
  contenders: contenders.flatMap((contender) => {
    const runs = samples.get(contender)!;
    return runs.length === 0 ? [] : [summariseContender(contender, runs)];
  }),
};
writePartResult(result);
