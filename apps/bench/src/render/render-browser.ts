import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../../scripts/chromium.js';
import type { TrialOptions, TrialResult } from './trial-types.js';

export interface BrowserTrialResult extends TrialResult {
  /** Renderer main-thread busy time during the trial (CDP Performance.getMetrics TaskDuration). */
  readonly mainThreadMs: number;
  readonly scriptMs: number;
}

/** Bundles the page with esbuild: production React, with react-dom's profiling build so Profiler reports commits. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page-entry.tsx', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    write: false,
    logLevel: 'silent',
    alias: { 'react-dom/client': 'react-dom/profiling' },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0]!.text;
}

function serve(script: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!doctype html><html><head><title>bench</title></head><body><script src="/bench.js"></script></body></html>',
      );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export interface BrowserBench {
  readonly version: string;
  run(options: TrialOptions): Promise<BrowserTrialResult>;
  close(): Promise<void>;
}

export async function openBrowserBench(): Promise<BrowserBench> {
  const script = await bundlePage();
  const server = await serve(script);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  return {
    version: browser.version(),
    async run(options) {
      // A fresh page per trial: no JIT, heap or layout state carried from one contender to the next.
      const page = await browser.newPage();
      try {
        await page.goto(url);
        await page.waitForFunction(() => 'runTrial' in window);
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const metric = async () => {
          const { metrics } = await cdp.send('Performance.getMetrics');
          const read = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? 0;
          return { task: read('TaskDuration'), script: read('ScriptDuration') };
        };
        const before = await metric();
        const result = await page.evaluate(
          (trial) => (window as unknown as { runTrial: (o: TrialOptions) => Promise<TrialResult> }).runTrial(trial),
          options,
        );
        const after = await metric();
        return {
          ...result,
          mainThreadMs: Math.round((after.task - before.task) * 1000),
          scriptMs: Math.round((after.script - before.script) * 1000),
        };
      } finally {
        await page.close();
      }
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
