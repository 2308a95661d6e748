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

type Scheme = 'light' | 'dark';

/** How the app switches its theme, set on `<html>` and on the view's parent element. */
interface Switch {
  readonly os: Scheme;
  readonly htmlClass?: Scheme;
  readonly htmlDataTheme?: Scheme;
  readonly htmlAttribute?: Scheme;
  readonly parentClass?: Scheme;
  readonly parentAttribute?: Scheme;
}

/** What the theme gave the view: the card's painted colour (light white, dark slate 900) and its color-scheme. */
async function themeOf(page: Page, wanted: Switch): Promise<{ card: string; scheme: string }> {
  await page.emulateMedia({ colorScheme: wanted.os });
  return page
    .locator(RUN)
    .evaluate((run, { htmlClass, htmlDataTheme, htmlAttribute, parentClass, parentAttribute }) => {
      const html = document.documentElement;
      const parent = run.parentElement!;
      const set = (element: Element, name: string, value: string | undefined) =>
        value === undefined ? element.removeAttribute(name) : element.setAttribute(name, value);
      set(html, 'class', htmlClass);
      set(html, 'data-theme', htmlDataTheme);
      set(html, 'data-kestrel-theme', htmlAttribute);
      for (const scheme of ['light', 'dark']) parent.classList.remove(scheme);
      if (parentClass !== undefined) parent.classList.add(parentClass);
      set(parent, 'data-kestrel-theme', parentAttribute);
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
        [{ os: 'light', htmlClass: 'dark', parentClass: 'light' }, LIGHT],
        [{ os: 'dark', htmlAttribute: 'dark', parentClass: 'light' }, LIGHT],
        // next-themes' default switch, the data-theme attribute.
        [{ os: 'dark', htmlDataTheme: 'light' }, LIGHT],
        [{ os: 'light', htmlDataTheme: 'dark' }, DARK],
      ];
      const seen = [];
      for (const [wanted] of cases) seen.push(await themeOf(page, wanted));
      expect(seen).toEqual(cases.map(([, expected]) => expected));

      // The app's own token values win over the theme's, whichever way it is switched.
      await page.addStyleTag({ content: ':root { --kestrel-card: rgb(1, 2, 3); --kestrel-radius: 0px; }' });
      const overridden = [];
      for (const wanted of [
        { os: 'light' },
        { os: 'dark' },
        { os: 'light', htmlClass: 'light' },
        { os: 'light', htmlClass: 'dark' },
        { os: 'dark', htmlDataTheme: 'dark' },
      ] as const) {
        await themeOf(page, wanted);
        overridden.push(
          await page.locator(RUN).evaluate((run) => {
            const style = getComputedStyle(run);
            return [style.backgroundColor, style.borderTopLeftRadius];
          }),
        );
      }
      // The card's corner is the radius token plus 2px.
      expect(new Set(overridden.map(String))).toEqual(new Set(['rgb(1, 2, 3),2px']));
      await page.evaluate(() => document.querySelector('style:last-of-type')?.remove());

      await themeOf(page, { os: 'dark', htmlClass: 'light' });
      await screenshot(page, 'theme-light-class-on-dark-os');
      await themeOf(page, { os: 'light', htmlClass: 'dark' });
      await screenshot(page, 'theme-dark-class-on-light-os');
    } finally {
      await context.close();
    }
  });
});
