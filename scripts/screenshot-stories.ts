/*
 * Screenshots of Storybook stories in Debian's Chromium, light and dark, wide and 390 px, so a change can be looked
 * at as a person sees it. Run `pnpm run build-storybook` first, then
 * `pnpm exec tsx scripts/screenshot-stories.ts <story-id> [...]` (ids as in the Storybook URL, e.g.
 * `components-finishnotice--length-limit`). Pictures go to artifacts/screenshots/stories/ (gitignored).
 */
import { mkdir, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { serveStatic } from './serve-static.js';

const root = resolve(import.meta.dirname, '..');
const staticDir = join(root, 'storybook-static');
const outDir = join(root, 'artifacts/screenshots/stories');
const themes = ['light', 'dark'] as const;
const widths = [1100, 390] as const;

async function main(storyIds: readonly string[]): Promise<void> {
  if (storyIds.length === 0) throw new Error('Name at least one story id, e.g. components-finishnotice--length-limit');
  if ((await stat(join(staticDir, 'iframe.html')).catch(() => null)) === null) {
    throw new Error(`No Storybook build in ${staticDir}: run \`pnpm run build-storybook\` first.`);
  }
  await mkdir(outDir, { recursive: true });
  const server = await serveStatic(staticDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
  try {
    const { port } = server.address() as AddressInfo;
    for (const id of storyIds) {
      for (const theme of themes) {
        for (const width of widths) {
          const page = await browser.newPage({
            viewport: { width, height: 900 },
            colorScheme: theme,
            reducedMotion: 'reduce',
          });
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${id}&viewMode=story&globals=theme:${theme}`, {
            waitUntil: 'load',
            timeout: 30_000,
          });
          await page.locator('#storybook-root > *').first().waitFor({ timeout: 30_000 });
          await page.evaluate(() => document.fonts.ready.then(() => undefined));
          if (errors.length > 0) throw new Error(`Story ${id} threw: ${errors.join('; ')}`);
          const path = join(outDir, `${id}-${theme}-${width}.png`);
          await page.screenshot({ path, fullPage: true, animations: 'disabled' });
          console.log(`Wrote ${path}`);
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    await new Promise((closed) => server.close(closed));
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
