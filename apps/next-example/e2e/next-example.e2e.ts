import { getScenario } from '@kestrel/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium.js';

const RUN = '[data-kestrel-run]';
// The mock plays `completed-text` for an input that names no scenario.
const answer = getScenario('completed-text').expected.assistantText!;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh page on the example; it fails the test on any uncaught page error or console error. */
async function open(path: string): Promise<{ page: Page; errors: string[]; kestrelRequests: string[] }> {
  const context = await browser.newContext({ baseURL: inject('nextUrl') });
  const page = await context.newPage();
  const errors: string[] = [];
  const kestrelRequests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on(
    'console',
    (message) => void (message.type() === 'error' && errors.push(`${message.text()} (${message.location().url})`)),
  );
  page.on(
    'request',
    (request) =>
      void (
        request.url().includes('/api/kestrel/') &&
        kestrelRequests.push(`${request.method()} ${new URL(request.url()).pathname}`)
      ),
  );
  await page.goto(path);
  return { page, errors, kestrelRequests };
}

describe('the Next.js App Router example, built and served by next start', () => {
  it('plays a run in <RunView> through the proxy route, then server-renders its result from the prefetched Query cache', async () => {
    const { page, errors, kestrelRequests } = await open('/');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator(`${RUN}[data-phase="settled"][data-status="COMPLETED"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator(RUN).innerText()).toContain(answer);
    expect(kestrelRequests).toEqual(['POST /api/kestrel/v1/sessions/new/runs']);
    // The page forbids inline styles (next.config.ts): the live region that announces the answer, rendered on the
    // server, is still visually hidden while it holds the answer, not a second visible copy of it.
    const announcer = page.locator(`${RUN} [aria-live="polite"]`).filter({ hasText: answer.slice(0, 40) });
    const box = await announcer.boundingBox();
    expect(box && [box.width, box.height]).toEqual([1, 1]);

    const link = page.getByRole('link', { name: 'Open the result page of this run' });
    const href = (await link.getAttribute('href')) ?? '';
    // The server component read the result itself: it is in the HTML before any script runs.
    const html = await (await fetch(new URL(href, inject('nextUrl')))).text();
    expect(html).toContain(answer);
    // And the browser's useQuery starts from the hydrated cache: no request for the result through the proxy.
    kestrelRequests.length = 0;
    await page.goto(href);
    await page.locator('[data-status="COMPLETED"]').waitFor();
    expect(await page.locator('[data-status="COMPLETED"]').innerText()).toContain(answer);
    expect(kestrelRequests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("README's drop-in snippet, pasted as a page, plays a run", async () => {
    const { page, errors } = await open('/drop-in');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator(`${RUN}[data-phase="settled"][data-status="COMPLETED"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator(RUN).innerText()).toContain(answer);
    expect(errors).toEqual([]);
  });

  it('useChat with the Kestrel transport finishes the message with the run’s answer', async () => {
    const { page, errors } = await open('/chat');
    await page.getByRole('textbox', { name: 'Message' }).fill('What is the capital of Australia?');
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = page.locator('li[data-role="assistant"]');
    await expect.poll(() => reply.innerText(), { timeout: 30_000 }).toContain(answer);
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true); // the chat is ready again
    expect(errors).toEqual([]);
  });

  it('refuses a POST from another origin at the proxy route (CSRF check on, behind Next)', async () => {
    const response = await fetch(new URL('/api/kestrel/v1/sessions/new/runs', inject('nextUrl')), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', accept: 'application/json' },
      body: JSON.stringify({ input: 'hello' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'cross_origin' } });
  });
});
