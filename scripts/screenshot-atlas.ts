/*
 * Regenerates docs/images/storybook-atlas.png: the top of the "Atlas / All states" story, from the static Storybook
 * build, in Debian's Chromium. Run `pnpm run build-storybook` first, then `pnpm screenshot:atlas`.
 * The build is served from 127.0.0.1 on a free port for the length of the run only.
 */
import { stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { serveStatic } from './serve-static.js';

const root = resolve(import.meta.dirname, '..');
const staticDir = join(root, 'storybook-static');
const output = join(root, 'docs/images/storybook-atlas.png');
const storyId = 'atlas-all-states--side-by-side';
// A 1440 px wide page fits four tiles a row (minmax(340px, 1fr) plus the story's padding); drawn at 7/9 scale it is
// a 1120x770 picture of the first three rows, the size the docs picture has always had.
const viewport = { width: 1440, height: 990 };
const scale = 7 / 9;
const crop = { x: 0, y: 0, ...viewport };

async function main(): Promise<void> {
  const built = await stat(join(staticDir, 'iframe.html')).catch(() => null);
  if (built === null) throw new Error(`No Storybook build in ${staticDir}: run \`pnpm run build-storybook\` first.`);
  const server = await serveStatic(staticDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
  try {
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage({
      viewport,
      deviceScaleFactor: scale,
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${storyId}&viewMode=story`, {
      waitUntil: 'load',
      timeout: 30_000,
    });
    // Wait for the story itself (its tiles), then for fonts, so the picture never catches a half-rendered grid.
    await page.locator('#storybook-root [data-tile] [data-kestrel-run]').first().waitFor({ timeout: 30_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    if (errors.length > 0) throw new Error(`The story threw: ${errors.join('; ')}`);
    await page.screenshot({ path: output, clip: crop, animations: 'disabled' });
    console.log(
      `Wrote ${output} (${Math.round(crop.width * scale)}x${Math.round(crop.height * scale)}) from story ${storyId}.`,
    );
  } finally {
    await browser.close();
    await new Promise((closed) => server.close(closed));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
