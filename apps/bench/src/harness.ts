import { writeFileSync } from 'node:fs';

export { check, interleave, median, medianRatio, timeMs } from './measure.js';

export const MB = 1024 * 1024;

/** Parts run as child processes; each writes its JSON result where the runner says. */
export function writePartResult(result: unknown): void {
  const out = process.env.BENCH_PART_OUT;
  const json = JSON.stringify(result, null, 2);
  if (out === undefined) console.log(json);
  else writeFileSync(out, json);
}

export function log(message: string): void {
  process.stderr.write(`  ${message}\n`);
}
