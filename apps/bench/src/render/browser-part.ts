import { log, writePartResult } from '../harness.js';
import { browserRounds, medianSample, rotated, spread } from '../rounds.js';
import { createSyntheticStream } from '../synthetic-stream.js';
import { openBrowserBench, type BrowserTrialResult } from './render-browser.js';
import { renderPlan } from './render-plan.js';

// Part 2 in real Chromium: every contender at every rate, one fresh page each, in rounds of rotated order.
const { deltas: count, trials } = renderPlan();
const deltas = createSyntheticStream({ deltas: count }).deltaTexts;
const rounds = browserRounds();
const samples = trials.map(() => [] as BrowserTrialResult[]);
const bench = await openBrowserBench();
try {
  for (let round = 0; round < rounds; round++) {
    for (const index of rotated(
      trials.map((_, i) => i),
      round,
    )) {
      const trial = trials[index]!;
      const result = await bench.run({ ...trial, deltas });
      log(
        `round ${round + 1}/${rounds} chromium ${trial.contender} @ ${trial.rate}: ${result.commits} commits, ${result.mainThreadMs} ms main thread, ${result.longTasks} long tasks`,
      );
      samples[index]!.push(result);
    }
  }
} finally {
  await bench.close();
}
writePartResult({
  environment: 'chromium',
  chromiumVersion: bench.version,
  deltas: count,
  rounds,
  // Each trial's figures are medians over the rounds; `spread` gives min and max of the two compared figures.
  trials: samples.map((runs) => ({
    ...medianSample(runs),
    spread: {
      commits: spread(runs.map((run) => run.commits)),
      mainThreadMs: spread(runs.map((run) => run.mainThreadMs)),
    },
  })),
});
