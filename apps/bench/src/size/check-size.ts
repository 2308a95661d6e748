import { kB, measureSizes } from './measure-size.js';

/*
 * `pnpm run size` (CI, scripts/verify.sh): the bundle budgets, excluding React and zod (see measure-size.ts for
 * why zod is still excluded), with each budget also set against the figure with zod. Exits 1 when a budget is
 * exceeded.
 */
const figures = await measureSizes();
console.log('bundle sizes: esbuild 0.28 --minify, production, gzip -9. Budgeted figure: react, react-dom and zod external.');
console.log(`  ${'app'.padEnd(44)} ${'gz'.padStart(9)} ${'min'.padStart(9)} ${'+zod gz'.padStart(9)} ${'+React gz'.padStart(10)}  budget`);
for (const figure of figures) {
  const budget = figure.budgetGzip === null ? 'reported only' : `${kB(figure.budgetGzip)} ${figure.pass ? 'ok' : 'OVER'}`;
  const cells = [kB(figure.gzipBytes).padStart(9), kB(figure.minBytes).padStart(9), kB(figure.gzipBytesWithZod).padStart(9), kB(figure.gzipBytesWithReact).padStart(10)];
  console.log(`  ${figure.label.padEnd(44)} ${cells.join(' ')}  ${budget}`);
}
console.log('with zod (zod/mini, as @kestrel/core bundles it), for information:');
for (const figure of figures) {
  if (figure.budgetGzip === null) continue;
  const gap = figure.gzipBytesWithZod - figure.budgetGzip;
  const verdict = gap > 0 ? `over by ${kB(gap)}` : `within, ${kB(-gap)} to spare`;
  console.log(`  ${figure.label.padEnd(44)} ${kB(figure.gzipBytesWithZod).padStart(9)} against ${kB(figure.budgetGzip)}: ${verdict}`);
}
const over = figures.filter((figure) => figure.pass === false);
if (over.length > 0) {
  for (const figure of over) {
    console.error(`\n${figure.label} is ${kB(figure.gzipBytes)} gz, over its ${kB(figure.budgetGzip!)} budget. Largest inputs:`);
    for (const input of figure.largestInputs) console.error(`  ${kB(input.bytes).padStart(9)} min  ${input.path}`);
  }
  process.exit(1);
}
