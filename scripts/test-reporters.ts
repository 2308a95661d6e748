import { resolve } from 'node:path';

/*
 * `pnpm verify` sets KESTREL_RESULTS to a folder; each Vitest run then also writes a JSON report there, so the
 * verify script can close with one "N passed, N failed" line over every suite. Without it, only the console.
 */
export function testReporters(name: string): (string | [string, Record<string, unknown>])[] {
  const folder = process.env.KESTREL_RESULTS;
  if (folder === undefined || folder === '') return ['default'];
  return ['default', ['json', { outputFile: resolve(folder, `${name}.json`) }]];
}
