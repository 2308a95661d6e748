import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium.js';

/** Debian's Chromium, never a downloaded one; the flags keep it quiet on a machine without a network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

/** Where screenshots go: `artifacts/screenshots/` at the repository root (gitignored, kept by CI). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../artifacts/screenshots/', import.meta.url));

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
}

declare global {
  interface Window {
    /** Every `data-phase` the run view went through, in order, recorded by {@link recordPhases}. */
    __phases?: string[];
    /** Every draft text the run view showed, in order. */
    __drafts?: string[];
  }
}

/** Records each phase and draft the page's run shows, so short states (reconnecting) are seen even when they pass fast. */
export async function recordPhases(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const phases: string[] = [];
    const drafts: string[] = [];
    window.__phases = phases;
    window.__drafts = drafts;
    const note = () => {
      const phase = document
        .querySelector('[data-kestrel-run], [data-testid="invoice-run"]')
        ?.getAttribute('data-phase');
      if (phase && phases.at(-1) !== phase) phases.push(phase);
      const draft = document.querySelector('[data-kestrel-part="draft"] [data-kestrel-text]')?.textContent;
      if (draft && drafts.at(-1) !== draft) drafts.push(draft);
    };
    new MutationObserver(note).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

/** Paces every mock event at `ms` (the mock reads `x-kestrel-delay`), so a person (or a test) can act mid-stream. */
export async function paceEvents(page: Page, ms: number): Promise<void> {
  await page.route('**/v1/**', (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-kestrel-delay': String(ms) } }),
  );
}

/** A fresh context per test: no shared storage, the run history starts empty. */
export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1100, height: 800 } });
  await recordPhases(context);
  const page = await context.newPage();
  return { context, page };
}
