import { log, writePartResult } from '../harness.js';
import { createSyntheticStream } from '../synthetic-stream.js';
import { openBrowserBench, type BrowserTrialResult } from './render-browser.js';
import { renderPlan } from './render-plan.js';

// Part 2 in real Chromium: every contender at every rate, one fresh page each.
const { deltas: count, trials } = renderPlan();
const deltas = createSyntheticStream({ deltas: count }).deltaTexts;
const bench = await openBrowserBench();
const results: BrowserTrialResult[] = [];
try {
  for (const trial of trials) {
    const result = await bench.run({ ...trial, deltas });
    log(
      `chromium ${trial.contender} @ ${trial.rate}: ${result.commits} commits, ${result.mainThreadMs} ms main thread, ${result.longTasks} long tasks`,
    );
    results.push(result);
  }
} finally {
  await bench.close();
}
writePartResult({ environment: 'chromium', chromiumVersion: bench.version, deltas: count, trials: results });
