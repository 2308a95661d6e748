import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium.js';

/** Writes the chart as SVG, and as PNG by a Chromium screenshot of it (for viewers that do not show SVG). */
export async function writeChartFiles(svg: string, svgPath: string, pngPath: string): Promise<void> {
  writeFileSync(svgPath, svg);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 2 });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}
