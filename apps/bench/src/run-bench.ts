import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { frameCostChart } from './chart.js';
import { writeChartFiles } from './chart-image.js';
import { kB, measureSizes } from './size/measure-size.js';
import { printSummary, type BenchResults } from './summary.js';

/*
 * `pnpm bench`: every part in its own Node process (clean heaps, the flags each part needs), then one JSON file
 * in bench-results/ and a summary of ratios. Figures are ratios against baselines measured in the same run on
 * the same bytes; absolute times on a shared 2-core machine are context, not verdicts. A part that fails is
 * reported as not measured, with its error, and the others still run. BENCH_PARTS=a,b runs only those parts.
 */
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = fileURLToPath(new URL('../../../', import.meta.url));
const resultsDir = `${repoDir}bench-results/`;
mkdirSync(resultsDir, { recursive: true });
const scratch = `${resultsDir}.parts-${process.pid}`;
mkdirSync(scratch, { recursive: true });

const PARTS = [
  'throughput',
  'throughput-chromium',
  'growth',
  'memory',
  'memory-structural',
  'size',
  'render-chromium',
  'render-jsdom',
  'render-runview',
  'render-session',
  'proxy',
] as const;
type PartName = (typeof PARTS)[number];
const selected = new Set(process.env.BENCH_PARTS?.split(',') ?? PARTS);
for (const name of selected)
  if (!(PARTS as readonly string[]).includes(name))
    throw new Error(`BENCH_PARTS: unknown part ${name} (known: ${PARTS.join(', ')})`);

const partErrors: Record<string, string> = {};
for (const name of PARTS) if (!selected.has(name)) partErrors[name] = 'left out by BENCH_PARTS';

function runPart<T>(name: string, script: string, nodeFlags: string[] = [], env: Record<string, string> = {}): T {
  const out = `${scratch}/${name}.json`;
  const started = Date.now();
  process.stderr.write(`\n▶ ${name}\n`);
  const child = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd: benchDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env, BENCH_PART_OUT: out },
  });
  if (child.status !== 0) throw new Error(`bench part ${name} exited with ${child.status ?? child.signal}`);
  process.stderr.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return JSON.parse(readFileSync(out, 'utf8')) as T;
}

/** A part that cannot run in this tree yet (its script or option is missing): reported as absent, not as failed. */
class PartAbsent extends Error {}

/** Runs a selected part; a failure is recorded against `name` and gives `undefined`, never a figure. */
async function part<T>(name: PartName, run: () => T | Promise<T>): Promise<T | undefined> {
  if (!selected.has(name)) return undefined;
  try {
    return await run();
  } catch (error) {
    partErrors[name] =
      error instanceof PartAbsent ? error.message : `failed: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`  ${name} FAILED: ${partErrors[name]}\n`);
    return undefined;
  }
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

type Results = BenchResults;
const started = new Date();
const loadBefore = os.loadavg();
try {
  const throughput = await part('throughput', () => runPart<Results['throughput']>('throughput', 'src/throughput.ts'));
  const throughputChromium = await part('throughput-chromium', () =>
    runPart<Results['throughputChromium']>('throughput-chromium', 'src/throughput-chromium.ts'),
  );
  const growth = await part('growth', () =>
    runPart<Results['growth']>('growth', 'src/growth.ts', ['--max-old-space-size=4096']),
  );
  type MemoryEntry = NonNullable<Results['memory']>[number];
  const memory: MemoryEntry[] = [];
  await part('memory', () => {
    for (const mib of ['1', '5', '10'])
      memory.push(
        runPart<MemoryEntry>(`memory-${mib}MiB`, 'src/memory.ts', ['--expose-gc'], { BENCH_MEMORY_MIB: mib }),
      );
  });
  // Issue 17 item 5: a 1M-delta run keeping only structural events. memory.ts takes these variables once the
  // option exists; until then the case is reported as not measured rather than run as something else.
  await part('memory-structural', () => {
    memory.push(
      runPart<MemoryEntry>('memory-structural-1M', 'src/memory.ts', ['--expose-gc', '--max-old-space-size=4096'], {
        BENCH_MEMORY_RETAIN: 'structural',
        BENCH_MEMORY_DELTAS: '1000000',
      }),
    );
  });
  const size = await part('size', async () => {
    process.stderr.write('\n▶ size\n');
    const figures = await measureSizes();
    for (const figure of figures) process.stderr.write(`  ${figure.label}: ${kB(figure.gzipBytes)} gz\n`);
    return figures;
  });
  const production = { NODE_ENV: 'production' };
  type Render = NonNullable<Results['render']>;
  const chromium = await part('render-chromium', () =>
    runPart<Render['chromium']>('render-chromium', 'src/render/browser-part.ts', [], production),
  );
  const jsdom = await part('render-jsdom', () =>
    runPart<Render['jsdom']>('render-jsdom', 'src/render/jsdom-part.ts', [], production),
  );
  const runView = await part('render-runview', () =>
    runPart<Results['runView']>('render-runview', 'src/render/runview-part.ts', [], production),
  );
  // Issue 18: a 1,000-run conversation (BENCH_SESSION_RUNS) with one more run streaming, <SessionView> vs useChat.
  const session = await part('render-session', () =>
    runPart<Results['session']>('render-session', 'src/render/session-part.ts', [], production),
  );
  const proxy = await part('proxy', () => {
    const script = 'src/proxy/proxy-part.ts';
    if (!existsSync(`${benchDir}${script}`)) throw new PartAbsent(`apps/bench/${script} is not in this tree`);
    // Only the hosts it starts collect garbage on demand (proxy-host.ts, --expose-gc).
    return runPart<Results['proxy']>('proxy', script, []);
  });

  let chart: Results['chart'];
  if (runView !== undefined) {
    const svg = 'docs/images/bench-frame-cost.svg';
    const png = 'docs/images/bench-frame-cost.png';
    const { chars, deltas, rate } = runView.answer;
    const title = `Main-thread ms per frame over a ${Math.round(chars / 1000)} kB markdown answer`;
    const subtitle = `${deltas.toLocaleString('en-US')} deltas at ${rate.toLocaleString('en-US')} events/s in Chromium; median of ${runView.rounds} rounds; pnpm bench, ${started.toISOString().slice(0, 16)}Z`;
    try {
      await writeChartFiles(frameCostChart(runView, title, subtitle), `${repoDir}${svg}`, `${repoDir}${png}`);
      chart = { svg, png };
    } catch (error) {
      partErrors.chart = `failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  const results: BenchResults = {
    startedAt: started.toISOString(),
    durationS: Math.round((Date.now() - started.getTime()) / 1000),
    command: process.env.BENCH_PARTS === undefined ? 'pnpm bench' : `BENCH_PARTS=${process.env.BENCH_PARTS} pnpm bench`,
    machine: {
      ...machine(),
      chromium: runView?.chromiumVersion ?? chromium?.chromiumVersion ?? session?.chromiumVersion ?? null,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg(),
    },
    partErrors,
    throughput,
    throughputChromium,
    growth,
    memory: memory.length === 0 ? undefined : memory,
    size,
    render: { chromium, jsdom },
    runView,
    session,
    proxy,
    chart,
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
