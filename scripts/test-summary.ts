import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/*
 * Sums the JSON reports `pnpm verify` collected and prints the closing line CI reads. Every report counts: a test
 * run on Node 20, 22 and 24 is three executions, each of which can fail on its own, so it counts three times. The
 * breakdown after the totals names each run (`unit on Node 22`), so the sum is never mistaken for a test count.
 */
interface VitestJsonReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
}

const folder = process.argv[2] ?? 'artifacts/test-results';
let passed = 0;
let failed = 0;
let skipped = 0;
const runs: string[] = [];
for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
  const report = JSON.parse(readFileSync(join(folder, file), 'utf8')) as VitestJsonReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  const label = basename(file, '.json').replace(/-node(\d+)$/, ' on Node $1');
  runs.push(`${label}: ${report.numPassedTests} passed${report.numFailedTests > 0 ? `, ${report.numFailedTests} failed` : ''}`);
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''} over ${runs.length} runs (${runs.join('; ')})`);
process.exit(failed > 0 ? 1 : 0);
