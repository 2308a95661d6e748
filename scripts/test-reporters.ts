import { resolve } from 'node:path';

/*
 * `pnpm verify` sets KESTREL_RESULTS to a folder; each Vitest run then also writes a JSON report there, so the
 * verify script can close with one "N passed, N failed" line over every suite. Without it, only the console.
 * The report is named after the suite and the Node major it ran on (`unit-node22.json`), so the passes on other
 * Node versions (scripts/test-other-nodes.sh) add their own report instead of overwriting the main one.
 */
export function testReporters(name: string): (string | [string, Record<string, unknown>])[] {
  const folder = process.env.KESTREL_RESULTS;
  if (folder === undefined || folder === '') return ['default'];
  const nodeMajor = process.versions.node.split('.')[0] ?? 'unknown';
  return ['default', ['json', { outputFile: resolve(folder, `${name}-node${nodeMajor}.json`) }]];
}
