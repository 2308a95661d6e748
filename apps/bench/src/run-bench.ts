import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { kB, measureSizes } from './size/measure-size.js';
import { printSummary, type BenchResults } from './summary.js';

/*
 * `pnpm bench`: every part in its own Node process (clean heaps, the flags each part needs), then one JSON file
 * in bench-results/ and a summary of ratios. Figures are ratios against baselines measured in the same run on
 * the same bytes; absolute times on a shared 2-core machine are context, not verdicts.
 */
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('../../../bench-results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
const scratch = `${resultsDir}.parts-${process.pid}`;
mkdirSync(scratch, { recursive: true });

function runPart<T>(name: string, script: string, nodeFlags: string[] = [], env: Record<string, string> = {}): T {
  const out = `${scratch}/${name}.json`;
  const started = Date.now();
  process.stderr.write(`\n▶ ${name}\n`);
  const child = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd: benchDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env, BENCH_PART_OUT: out },
  });
  if (child.status !== 0) throw new Error(`bench part ${name} failed (exit ${child.status ?? child.signal})`);
  process.stderr.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return JSON.parse(readFileSync(out, 'utf8')) as T;
}

function machine() {
  const free = (() => {
    try {
      return execFileSync('free', ['-h'], { encoding: 'utf8' }).trim();
    } catch {
      return `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB total`;
    }
  })();
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    freeH: free,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

const started = new Date();
const loadBefore = os.loadavg();
try {
  const throughput = runPart<BenchResults['throughput']>('throughput', 'src/throughput.ts');
  const growth = runPart<BenchResults['growth']>('growth', 'src/growth.ts', ['--max-old-space-size=4096']);
  const memory = ['1', '5', '10'].map((mib) =>
    runPart<BenchResults['memory'][number]>(`memory-${mib}MiB`, 'src/memory.ts', ['--expose-gc'], {
      BENCH_MEMORY_MIB: mib,
    }),
  );
  // Issue 17 target 5: a 1M-delta run with retainEvents: 'structural' retains at most 2× its answer's bytes.
  memory.push(
    runPart<BenchResults['memory'][number]>(
      'memory-1M-deltas-structural',
      'src/memory.ts',
      ['--expose-gc', '--max-old-space-size=4096'],
      { BENCH_MEMORY_DELTAS: '1000000', BENCH_MEMORY_RETAIN: 'structural' },
    ),
  );
  process.stderr.write('\n▶ size\n');
  const size = await measureSizes();
  for (const figure of size) process.stderr.write(`  ${figure.label}: ${kB(figure.gzipBytes)} gz\n`);
  const chromium = runPart<BenchResults['render']['chromium']>('render-chromium', 'src/render/browser-part.ts', [], {
    NODE_ENV: 'production',
  });
  const jsdom = runPart<BenchResults['render']['jsdom']>('render-jsdom', 'src/render/jsdom-part.ts', [], {
    NODE_ENV: 'production',
  });

  const results: BenchResults = {
    startedAt: started.toISOString(),
    durationS: Math.round((Date.now() - started.getTime()) / 1000),
    command: 'pnpm bench',
    machine: {
      ...machine(),
      chromium: chromium.chromiumVersion,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg(),
    },
    throughput,
    growth,
    memory,
    size,
    render: { chromium, jsdom },
  };
  const file = `${resultsDir}bench-${started.toISOString().replace(/[:.]/g, '-')}.json`;
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(`${resultsDir}latest.json`, json);
  printSummary(results);
  console.log(`\nResults: ${file} (also bench-results/latest.json)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
