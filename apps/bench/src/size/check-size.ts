import { kB, measureSizes } from './measure-size.js';

/*
 * `pnpm run size` (CI, scripts/verify.sh): issue 8's bundle budgets, counted as size-limit counts a library
 * (its peer dependencies, React and zod, left out), and a ceiling on the same apps with zod bundled. Exits 1
 * when either is exceeded.
 */
const figures = await measureSizes();
console.log('bundle sizes: esbuild 0.28 --minify, production, gzip -9.');
console.log('  budget: peer dependencies (react, react-dom, zod) left out, as size-limit counts a library.');
console.log('  ceiling: zod bundled too (React still out): what an app without zod downloads.');
console.log(
  `  ${'app'.padEnd(44)} ${'gz'.padStart(9)} ${'min'.padStart(9)} ${'+zod gz'.padStart(9)} ${'+React gz'.padStart(10)}  budget / ceiling`,
);
for (const figure of figures) {
  const verdict = (value: number, limit: number | null) =>
    limit === null ? '-' : `${kB(limit)} ${value <= limit ? 'ok' : 'OVER'}`;
  const limits =
    figure.pass === null
      ? 'reported only'
      : `${verdict(figure.gzipBytes, figure.budgetGzip)} / ${verdict(figure.gzipBytesWithPeers, figure.ceilingWithPeersGzip)}`;
  const cells = [
    kB(figure.gzipBytes).padStart(9),
    kB(figure.minBytes).padStart(9),
    kB(figure.gzipBytesWithPeers).padStart(9),
    kB(figure.gzipBytesWithReact).padStart(10),
  ];
  console.log(`  ${figure.label.padEnd(44)} ${cells.join(' ')}  ${limits}`);
}
const over = figures.filter((figure) => figure.pass === false);
if (over.length > 0) {
  for (const figure of over) {
    console.error(`\n${figure.label} is over its budget or ceiling. Largest inputs (zod bundled), minified bytes:`);
    for (const input of figure.largestInputs) console.error(`  ${String(input.bytes).padStart(9)}  ${input.path}`);
  }
  process.exit(1);
}
