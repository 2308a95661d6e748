import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, newPage, screenshot } from './browser.js';
import { RUN, startScenario, waitForEnd } from './run-view.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** How the app switches its theme, set on `<html>` and on the view's parent element. */
interface Switch {
  readonly os: 'light' | 'dark';
  readonly htmlClass?: 'light' | 'dark';
  readonly htmlAttribute?: 'light' | 'dark';
  readonly parentAttribute?: 'light' | 'dark';
}

/** What the theme gave the view: the card's painted colour (light white, dark slate 900) and its color-scheme. */
async function themeOf(page: Page, wanted: Switch): Promise<{ card: string; scheme: string }> {
  await page.emulateMedia({ colorScheme: wanted.os });
  return page.locator(RUN).evaluate((run, { htmlClass, htmlAttribute, parentAttribute }) => {
    const html = document.documentElement;
    html.classList.remove('light', 'dark');
    if (htmlClass !== undefined) html.classList.add(htmlClass);
    const set = (element: Element, value: string | undefined) =>
      value === undefined
        ? element.removeAttribute('data-kestrel-theme')
        : element.setAttribute('data-kestrel-theme', value);
    set(html, htmlAttribute);
    set(run.parentElement!, parentAttribute);
    const style = getComputedStyle(run);
    return { card: style.backgroundColor, scheme: style.colorScheme };
  }, wanted);
}

const LIGHT = { card: 'rgb(255, 255, 255)', scheme: 'light' };
const DARK = { card: 'rgb(15, 23, 42)', scheme: 'dark' };

describe('theme.css in the built demo', () => {
  it("follows the app's dark or light class (Tailwind, next-themes) over the OS, and data-kestrel-theme over both", async () => {
    const { context, page } = await newPage(browser, inject('demoUrl'));
    try {
      await startScenario(page, 'completed-text');
      await waitForEnd(page, 'settled');
      const cases: readonly [Switch, typeof LIGHT][] = [
        [{ os: 'light' }, LIGHT],
        [{ os: 'dark' }, DARK],
        // An app whose user chose light on a dark system (next-themes sets the class on <html>).
        [{ os: 'dark', htmlClass: 'light' }, LIGHT],
        [{ os: 'light', htmlClass: 'dark' }, DARK],
        // The kit's own attribute wins over the class on the same element, and the nearest switch wins.
        [{ os: 'light', htmlClass: 'dark', htmlAttribute: 'light' }, LIGHT],
        [{ os: 'dark', htmlClass: 'light', htmlAttribute: 'dark' }, DARK],
        [{ os: 'dark', htmlClass: 'dark', parentAttribute: 'light' }, LIGHT],
        [{ os: 'light', htmlClass: 'light', parentAttribute: 'dark' }, DARK],
      ];
      const seen = [];
      for (const [wanted] of cases) seen.push(await themeOf(page, wanted));
      expect(seen).toEqual(cases.map(([, expected]) => expected));

      await themeOf(page, { os: 'dark', htmlClass: 'light' });
      await screenshot(page, 'theme-light-class-on-dark-os');
      await themeOf(page, { os: 'light', htmlClass: 'dark' });
      await screenshot(page, 'theme-dark-class-on-light-os');
    } finally {
      await context.close();
    }
  });
});
