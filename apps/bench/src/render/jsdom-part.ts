import { log, writePartResult } from '../harness.js';
import { createSyntheticStream } from '../synthetic-stream.js';
import { renderPlan } from './render-plan.js';

// Part 2 in jsdom (run with NODE_ENV=production): every contender at every rate, one fresh root each.
if (process.env.NODE_ENV !== 'production')
  throw new Error('run with NODE_ENV=production (production React, profiling react-dom)');
const { runJsdomTrial } = await import('./render-jsdom.js');
const { deltas: count, trials } = renderPlan();
const deltas = createSyntheticStream({ deltas: count }).deltaTexts;
const results = [];
for (const trial of trials) {
  const result = await runJsdomTrial({ ...trial, deltas });
  log(
    `jsdom ${trial.contender} @ ${trial.rate}: ${result.commits} commits, ${result.mainThreadMs} ms main thread, ${result.longTasks} long tasks`,
  );
  results.push(result);
}
writePartResult({ environment: 'jsdom', deltas: count, trials: results });
// jsdom's pretendToBeVisual frame timer keeps the loop alive.
process.exit(0);
