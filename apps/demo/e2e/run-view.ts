import type { Page } from 'playwright-core';

export const RUN = '[data-kestrel-run]';
export const part = (name: string) => `${RUN} [data-kestrel-part="${name}"]`;

/** Opens the RunView page and starts a scenario the way a person does: pick it, press Start. */
export async function startScenario(page: Page, name: string): Promise<void> {
  if (new URL(page.url(), 'http://x').pathname !== '/run-view' || page.url() === 'about:blank')
    await page.goto('/run-view');
  await page.getByLabel('Scenario').selectOption(name);
  await page.getByRole('button', { name: 'Start run' }).click();
}

/**
 * Waits until the run shows an outcome or an error (or, given `phase`, that one: a stream that breaks the
 * protocol after `run.completed` shows settled for a moment before the error), and returns what it shows.
 */
export async function waitForEnd(
  page: Page,
  phase?: 'settled' | 'error',
  timeout = 30_000,
): Promise<{ phase: string; status: string | null }> {
  const wanted = phase === undefined ? ['settled', 'error'] : [phase];
  const run = page.locator(wanted.map((name) => `${RUN}[data-phase="${name}"]`).join(', '));
  await run.waitFor({ timeout });
  return { phase: (await run.getAttribute('data-phase')) ?? '', status: await run.getAttribute('data-status') };
}

export const phasesSeen = (page: Page) => page.evaluate(() => window.__phases ?? []);
export const draftsSeen = (page: Page) => page.evaluate(() => window.__drafts ?? []);

/** The run id the page keeps in its URL, once it is there. */
export async function runIdInUrl(page: Page): Promise<string> {
  await page.waitForURL((url) => url.searchParams.has('run'));
  return new URL(page.url()).searchParams.get('run') ?? '';
}
