import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/*
 * Sums the JSON reports `pnpm verify` collected and prints the closing line CI reads. Every report counts: a test
 * run on Node 20, 22 and 24 is three executions, each of which can fail on its own, so it counts three times. The
 * breakdown after the totals names each run (`unit on Node 22`), so the sum is never mistaken for a test count.
 */
export interface VitestJsonReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
}

/** The closing line over reports named `<suite>-node<major>.json`, and whether any test failed. */
export function summarize(reports: ReadonlyMap<string, VitestJsonReport>): { line: string; failed: boolean } {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const runs: string[] = [];
  for (const [file, report] of [...reports].sort(([a], [b]) => a.localeCompare(b))) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    const label = basename(file, '.json').replace(/-node(\d+)$/, ' on Node $1');
    runs.push(
      `${label}: ${report.numPassedTests} passed${report.numFailedTests > 0 ? `, ${report.numFailedTests} failed` : ''}`,
    );
  }
  const totals = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  return { line: `${totals} over ${runs.length} runs (${runs.join('; ')})`, failed: failed > 0 };
}

if (import.meta.filename === process.argv[1]) {
  const folder = process.argv[2] ?? 'artifacts/test-results';
  const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
  const reports = new Map(
    files.map((file) => [file, JSON.parse(readFileSync(join(folder, file), 'utf8')) as VitestJsonReport]),
  );
  const { line, failed } = summarize(reports);
  console.log(line);
  process.exit(failed ? 1 : 0);
}
