import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../../scripts/chromium.js';
import { bundlePage } from '../bundle-page.js';
import { busyIntervalsFromTrace, frameCostSeries, msPerFrame, scheduleOf, type StreamTimeline } from './frame-cost.js';
import type { RunViewContender, RunViewPageResult, RunViewTrialOptions } from './runview-trial-types.js';
import type { SessionPageResult, SessionTrialOptions } from './session-trial-types.js';
import { BREAKDOWN_TRACE_CATEGORIES } from './trace-breakdown.js';
import type { TrialOptions, TrialResult } from './trial-types.js';

export interface BrowserTrialResult extends TrialResult {
  /** Renderer main-thread busy time during the trial (CDP Performance.getMetrics TaskDuration). */
  readonly mainThreadMs: number;
  readonly scriptMs: number;
}

/** The kit's theme, as an app that imports `@kestrel/react/theme.css` has it (RunView's text layout depends on it). */
const themeCss = readFileSync(createRequire(import.meta.url).resolve('@kestrel/react/theme.css'), 'utf8');

function serve(script: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html lang="en"><head><title>bench</title><style>${themeCss}</style></head><body><script src="/bench.js"></script></body></html>`,
      );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

type TraceFile = Parameters<typeof busyIntervalsFromTrace>[0];

/** A full-view trial as the driver reports it: the page's own figures plus what the trace says of the main thread. */
export interface RunViewTrialResult {
  readonly contender: RunViewContender;
  readonly deltas: number;
  readonly commits: number;
  readonly reactRenderMs: number;
  /** Renderer main-thread busy time during the trial (CDP Performance.getMetrics TaskDuration). */
  readonly mainThreadMs: number;
  readonly scriptMs: number;
  /** Main-thread ms per frame while the first and the last 10% of the deltas arrived (trace), and last / first. */
  readonly firstTenthMsPerFrame: number;
  readonly lastTenthMsPerFrame: number;
  readonly growth: number;
  /** Main-thread ms per frame over equal stretches of the stream: the chart's line. */
  readonly frameCostSeries: number[];
  readonly frames: number;
  readonly longTasks: number;
  readonly longTaskMs: number;
  readonly lagAfterLastDeltaMs: number;
  /** Delta-to-paint latency over every delivery: median, 95th percentile, max (ms); and deliveries never shown. */
  readonly deltaToPaint: { readonly p50: number; readonly p95: number; readonly max: number; readonly unshown: number };
  readonly durationMs: number;
  readonly contentCheck: RunViewPageResult['contentCheck'];
}

export interface BrowserBench {
  readonly version: string;
  run(options: TrialOptions): Promise<BrowserTrialResult>;
  runView(
    options: Omit<RunViewTrialOptions, 'originMark'> & {
      readonly buckets: number;
      /** Records a detailed trace (it slows the page) and hands it over with its origin mark: trace-runview.ts. */
      readonly onDetailedTrace?: (
        trace: unknown,
        origin: { readonly mark: string; readonly markMs: number },
        timeline: Omit<StreamTimeline, 'busy'>,
      ) => void;
    },
  ): Promise<RunViewTrialResult>;
  session(options: SessionTrialOptions): Promise<SessionTrialResult>;
  close(): Promise<void>;
}

/** A conversation trial as the driver reports it: the page's figures plus the renderer's main-thread time (CDP). */
export interface SessionTrialResult extends SessionPageResult {
  /** Renderer main-thread busy time over the whole trial: loading the history, mounting it, streaming. */
  readonly mainThreadMs: number;
  readonly scriptMs: number;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Runs `trial` in the page, with the renderer's main-thread and script time (CDP) around it. */
async function measured<T>(page: Page, trial: () => Promise<T>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const read = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? 0;
    return { task: read('TaskDuration'), script: read('ScriptDuration') };
  };
  const before = await metric();
  const result = await trial();
  const after = await metric();
  await cdp.detach();
  return {
    result,
    mainThreadMs: Math.round((after.task - before.task) * 1000),
    scriptMs: Math.round((after.script - before.script) * 1000),
  };
}

export async function openBrowserBench(): Promise<BrowserBench> {
  // react-dom's profiling build, so Profiler reports commits.
  const script = await bundlePage(new URL('./page-entry.tsx', import.meta.url), {
    'react-dom/client': 'react-dom/profiling',
  });
  const server = await serve(script);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  // A fresh page per trial: no JIT, heap or layout state carried from one contender to the next.
  async function withPage<T>(trial: (page: Page) => Promise<T>): Promise<T> {
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await page.waitForFunction(() => 'runTrial' in window);
      return await trial(page);
    } finally {
      await page.close();
    }
  }

  return {
    version: browser.version(),
    async run(options) {
      return withPage(async (page) => {
        const { result, mainThreadMs, scriptMs } = await measured(page, () =>
          page.evaluate(
            (trial) => (window as unknown as { runTrial: (o: TrialOptions) => Promise<TrialResult> }).runTrial(trial),
            options,
          ),
        );
        return { ...result, mainThreadMs, scriptMs };
      });
    },
    async runView({ buckets, onDetailedTrace, ...options }) {
      return withPage(async (page) => {
        const originMark = `kestrel-bench-origin-${options.contender}`;
        // The trace gives the main thread's busy time per stretch of the stream; no page API reports it below 50 ms.
        const categories =
          onDetailedTrace === undefined ? ['toplevel', 'blink.user_timing'] : BREAKDOWN_TRACE_CATEGORIES;
        await browser.startTracing(page, { categories });
        let trace: Buffer | undefined;
        try {
          const { result, mainThreadMs, scriptMs } = await measured(page, () =>
            page.evaluate(
              (trial) =>
                (
                  window as unknown as { runRunViewTrial: (o: RunViewTrialOptions) => Promise<RunViewPageResult> }
                ).runRunViewTrial(trial),
              { ...options, originMark },
            ),
          );
          trace = await browser.stopTracing();
          const parsed: unknown = JSON.parse(trace.toString('utf8'));
          const frames = {
            ...scheduleOf(result.deliveries, result.deltas, options.rate),
            frameStarts: result.frameStarts,
          };
          onDetailedTrace?.(parsed, { mark: originMark, markMs: result.originMarkMs }, frames);
          const timeline: StreamTimeline = {
            ...frames,
            busy: busyIntervalsFromTrace(parsed as TraceFile, originMark, result.originMarkMs),
          };
          const first = msPerFrame(timeline, 0, 0.1);
          const last = msPerFrame(timeline, 0.9, 1);
          return {
            contender: result.contender,
            deltas: result.deltas,
            commits: result.commits,
            reactRenderMs: result.reactRenderMs,
            mainThreadMs,
            scriptMs,
            firstTenthMsPerFrame: round1(first),
            lastTenthMsPerFrame: round1(last),
            growth: Math.round((last / first) * 100) / 100,
            frameCostSeries: frameCostSeries(timeline, buckets).map(round1),
            frames: result.frameStarts.length,
            longTasks: result.longTasks,
            longTaskMs: result.longTaskMs,
            lagAfterLastDeltaMs: round1(result.lagAfterLastDeltaMs),
            deltaToPaint: {
              p50: round1(percentile(result.deltaToPaintMs, 50)),
              p95: round1(percentile(result.deltaToPaintMs, 95)),
              max: round1(Math.max(...result.deltaToPaintMs)),
              unshown: result.deliveries.length - result.deltaToPaintMs.length,
            },
            durationMs: result.durationMs,
            contentCheck: result.contentCheck,
          };
        } finally {
          if (trace === undefined) await browser.stopTracing().catch(() => undefined);
        }
      });
    },
    async session(options) {
      return withPage(async (page) => {
        const { result, mainThreadMs, scriptMs } = await measured(page, () =>
          page.evaluate(
            (trial) =>
              (
                window as unknown as { runSessionTrial: (o: SessionTrialOptions) => Promise<SessionPageResult> }
              ).runSessionTrial(trial),
            options,
          ),
        );
        return { ...result, mainThreadMs, scriptMs };
      });
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
