/*
 * Regenerates docs/images/storybook-atlas.png: the top of the "Atlas / All states" story, from the static Storybook
 * build, in Debian's Chromium. Run `pnpm run build-storybook` first, then `pnpm screenshot:atlas`.
 * The build is served from 127.0.0.1 on a free port for the length of the run only.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

const root = resolve(import.meta.dirname, '..');
const staticDir = join(root, 'storybook-static');
const output = join(root, 'docs/images/storybook-atlas.png');
const storyId = 'atlas-all-states--side-by-side';
// A 1440 px wide page fits four tiles a row (minmax(340px, 1fr) plus the story's padding); drawn at 7/9 scale it is
// a 1120x770 picture of the first three rows, the size the docs picture has always had.
const viewport = { width: 1440, height: 990 };
const scale = 7 / 9;
const crop = { x: 0, y: 0, ...viewport };

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

async function serveStatic(dir: string): Promise<Server> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = normalize(join(dir, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (!file.startsWith(dir + sep)) {
      response.writeHead(403).end();
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) throw new Error('not a file');
        response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'content-length': info.size });
        createReadStream(file).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ready);
  });
  return server;
}

async function main(): Promise<void> {
  const built = await stat(join(staticDir, 'iframe.html')).catch(() => null);
  if (built === null) throw new Error(`No Storybook build in ${staticDir}: run \`pnpm run build-storybook\` first.`);
  const server = await serveStatic(staticDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
  try {
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage({ viewport, deviceScaleFactor: scale, colorScheme: 'light', reducedMotion: 'reduce' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${storyId}&viewMode=story`, { waitUntil: 'load', timeout: 30_000 });
    // Wait for the story itself (its tiles), then for fonts, so the picture never catches a half-rendered grid.
    await page.locator('#storybook-root [data-tile] [data-kestrel-run]').first().waitFor({ timeout: 30_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    if (errors.length > 0) throw new Error(`The story threw: ${errors.join('; ')}`);
    await page.screenshot({ path: output, clip: crop, animations: 'disabled' });
    console.log(`Wrote ${output} (${Math.round(crop.width * scale)}x${Math.round(crop.height * scale)}) from story ${storyId}.`);
  } finally {
    await browser.close();
    await new Promise((closed) => server.close(closed));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
