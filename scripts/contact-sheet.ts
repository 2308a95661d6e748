/*
 * A contact sheet of story screenshots for the docs: `pnpm exec tsx scripts/contact-sheet.ts <out.png> <columns>
 * <width> <picture.png[:height]>...` lays the pictures (from scripts/screenshot-stories.ts) out in a grid, each
 * scaled to `width` px and cut at `height` px of its own (to drop the empty page below a story), and writes one PNG.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

async function main([out, columns, width, ...pictures]: readonly string[]): Promise<void> {
  if (out === undefined || columns === undefined || width === undefined || pictures.length === 0) {
    throw new Error('Usage: contact-sheet.ts <out.png> <columns> <width> <picture.png[:height]>...');
  }
  const cells = await Promise.all(
    pictures.map(async (spec) => {
      const [path = '', height] = spec.split(':');
      const data = (await readFile(path)).toString('base64');
      const label = basename(path, '.png').replace(/^atlas-[a-z-]+--/, '');
      const cut = height === undefined ? '' : `height:${Number(height)}px;`;
      return `<figure><figcaption>${label}</figcaption><div style="${cut}overflow:hidden"><img src="data:image/png;base64,${data}"></div></figure>`;
    }),
  );
  const html = `<!doctype html><style>
    body{margin:0;padding:12px;background:#e2e8f0;font:12px system-ui,sans-serif;color:#0f172a}
    main{display:grid;grid-template-columns:repeat(${Number(columns)},${Number(width)}px);gap:12px;align-items:start;width:max-content}
    figure{margin:0}figcaption{margin-bottom:4px;font-weight:600}img{display:block;width:100%}
    div{border:1px solid #94a3b8}
  </style><main>${cells.join('')}</main>`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.setContent(html, { waitUntil: 'load' });
    await page.locator('main').screenshot({ path: out });
    console.log(`Wrote ${out}`);
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
