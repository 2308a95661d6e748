import { splitIntoDeltas } from '@kestrel/testing';
import { benchAnswer } from './bench-answers.js';
import { openBrowserBench } from './render-browser.js';
import { RUNVIEW_CONTENDERS, type RunViewContender } from './runview-trial-types.js';
import { breakdownOfStretch, TRACE_CATEGORIES, type StretchBreakdown } from './trace-breakdown.js';

/*
 * Where a full-view trial's main-thread time goes, first 10% of the stream against the last: one trial per
 * contender (argv, default runview-markdown) with a detailed Chrome trace, printed as a table of self time per frame
 * by category. The detailed trace slows the page, so its totals run above the bench's own; compare the two
 * stretches, or two versions of the code traced close together.
 *   pnpm --filter @kestrel/bench exec tsx src/render/trace-runview.ts runview-markdown runview-plain
 * BENCH_ANSWER picks the answer, as in the full-view part.
 */
const contenders = (process.argv.length > 2 ? process.argv.slice(2) : ['runview-markdown']) as RunViewContender[];
for (const name of contenders)
  if (!RUNVIEW_CONTENDERS.includes(name))
    throw new Error(`unknown contender ${name} (known: ${RUNVIEW_CONTENDERS.join(', ')})`);

const rate = 2_000;
const deltas = splitIntoDeltas(benchAnswer(200_000).text, 20_000);
const bench = await openBrowserBench();
const fixed = (value: number) => value.toFixed(2);
try {
  for (const contender of contenders) {
    let stretches: [StretchBreakdown, StretchBreakdown] | undefined;
    const result = await bench.runView({
      contender,
      deltas,
      rate,
      timeoutMs: 70_000,
      buckets: 10,
      onDetailedTrace: (trace, origin, timeline) => {
        const of = (from: number, to: number) =>
          breakdownOfStretch(trace as Parameters<typeof breakdownOfStretch>[0], origin, timeline, { from, to });
        stretches = [of(0, 0.1), of(0.9, 1)];
      },
    });
    const [first, last] = stretches!;
    console.log(`\n${contender}: ${result.firstTenthMsPerFrame} → ${result.lastTenthMsPerFrame} ms/frame (busy time)`);
    console.log('| category | first 10% ms/frame | last 10% ms/frame |\n|---|---|---|');
    let total = [0, 0];
    for (const category of TRACE_CATEGORIES) {
      total = [total[0]! + first.msPerFrame[category], total[1]! + last.msPerFrame[category]];
      console.log(`| ${category} | ${fixed(first.msPerFrame[category])} | ${fixed(last.msPerFrame[category])} |`);
    }
    console.log(`| total | ${fixed(total[0]!)} | ${fixed(total[1]!)} |`);
    console.log(
      `elements per style recalculation ${first.styleElements.toFixed(0)} → ${last.styleElements.toFixed(0)}; layout objects ${first.layoutObjects.toFixed(0)} → ${last.layoutObjects.toFixed(0)} (dirty ${first.layoutDirtyObjects.toFixed(0)} → ${last.layoutDirtyObjects.toFixed(0)})`,
    );
  }
} finally {
  await bench.close();
}
