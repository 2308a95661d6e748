import type { AxeResults, RunOptions } from 'axe-core';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { newPage } from './browser.js';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Runs axe in the real browser over the whole page (colour contrast included) and fails naming each violation. */
export async function expectAccessiblePage(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } })
      .axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
    );
  });
  expect(violations).toEqual([]);
}

/** Collects uncaught errors thrown in the page; a test ends by checking there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Runs `run` on a fresh page of the demo and ends by checking that the page threw nothing. */
export async function withPage(browser: Browser, run: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await newPage(browser, inject('demoUrl'));
  const pageErrors = collectPageErrors(page);
  try {
    await run(page);
    expect(pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
}
