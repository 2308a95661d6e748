import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium.js';
import { bundlePage } from './bundle-page.js';
import { log, writePartResult } from './harness.js';
import type { ThroughputCase } from './throughput-cases.js';

/*
 * Part 1b: item 3's one-event-per-chunk cases in Chromium, the runtime that gets one event per chunk (a browser
 * behind the kit's proxy). Reported beside the Node figures, which the targets judge: a page's `ReadableStream`
 * reads, `TextDecoder` and `JSON.parse` are the browser's own, and their costs differ from Node's.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6);
const LABELS = ['text stream, one event per chunk', 'mixed stream, one event per chunk'];
/**
 * A bound on the whole page, from the rounds asked for: 2 cases of 15 rounds (9 and 6 warm-up) of four contenders
 * took about 35 s on the bench machine, so 10 s a round leaves room for a machine four times as slow.
 */
const PAGE_TIMEOUT_MS = 60_000 + (ROUNDS + WARMUP) * 10_000;

const script = await bundlePage(new URL('./throughput-page.ts', import.meta.url));

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html lang="en"><head><title>throughput</title></head><body></body></html>');
  await page.evaluate(
    (options) => {
      (globalThis as { benchOptions?: unknown }).benchOptions = options;
    },
    { rounds: ROUNDS, warmup: WARMUP, labels: LABELS },
  );
  await page.addScriptTag({ content: script });
  let timer: NodeJS.Timeout | undefined;
  const evaluated = page.evaluate(
    () => (globalThis as unknown as { benchResult: Promise<ThroughputCase[]> }).benchResult,
  );
  // Marked handled: once the bound wins, the page's own end (it rejects as the browser closes) is of no concern.
  evaluated.catch(() => undefined);
  const cases = await Promise.race([
    evaluated,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page did not finish in ${PAGE_TIMEOUT_MS} ms`)), PAGE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  for (const c of cases) {
    log(
      `chromium throughput (${c.label}): kit / floor ${c.ratioToFloor}; kit / stream floor ${c.ratioToStreamFloor}; stream floor / floor ${c.streamFloorToFloor}; read() calls alone ${c.streamReadsPerFloor}× the floor's time`,
    );
  }
  writePartResult({ browser: browser.version(), rounds: ROUNDS, cases });
} finally {
  await browser.close();
}
