import { getScenario } from '@kestrel/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerInteraction } from './answer-interaction.js';
import { launchChromium, paceEvents, screenshot } from './browser.js';
import { expectAccessiblePage, withPage as withDemoPage } from './page-checks.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const withPage = (run: (page: Page) => Promise<void>) => withDemoPage(browser, run);

const ENTRY = '[data-kestrel-part="entry"]';
const entries = (page: Page) => page.locator(ENTRY);
const lastEntry = (page: Page) => entries(page).last();
const sessionIdOf = (page: Page) => new URL(page.url()).searchParams.get('session');
const completedText = getScenario('completed-text').expected.assistantText ?? '';
const flight = getScenario('waiting-choice-single');

/** Types a message in the composer and sends it with Enter, the next reply playing `scenario` (the mock's picker). */
async function say(page: Page, text: string, scenario = 'completed-text') {
  await page.getByLabel('Next reply plays').selectOption(scenario);
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
}

const settledWith = (page: Page, index: number, status: string) =>
  entries(page).nth(index).locator(`[data-kestrel-run][data-status="${status}"]`).waitFor({ timeout: 30_000 });

async function answerFlight(page: Page) {
  const prompt = lastEntry(page).locator('[data-kestrel-part="interaction"]');
  await prompt.waitFor();
  await answerInteraction(
    prompt,
    { id: 'int_choice_single', kind: 'choice', prompt: '', options: [{ id: 'fr8341', label: 'FR 8341, 12:40' }] },
    { kind: 'choice', selected: ['fr8341'] },
  );
}

describe('the chat page (the landing page)', () => {
  it('sends what the person types, puts the session in the URL, and shows the answer', () =>
    withPage(async (page) => {
      await page.goto('/');
      await say(page, 'What is the capital of Australia?');
      await settledWith(page, 0, 'COMPLETED');
      expect(await entries(page).nth(0).locator('[data-kestrel-part="message"]').innerText()).toContain(
        'What is the capital of Australia?',
      );
      expect(await entries(page).nth(0).locator('[data-kestrel-part="assistant-text"]').innerText()).toBe(
        completedText,
      );
      await page.waitForURL((url) => url.searchParams.has('session'));
      // Focus stays in the composer for the next message.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
      await expectAccessiblePage(page);
      await screenshot(page, 'chat-sent');
    }));

  it('asks, takes the answer through the prompt, and shows it as the reply after a reload', () =>
    withPage(async (page) => {
      await page.goto('/');
      await say(page, 'Book me a flight to Paris', flight.name);
      await settledWith(page, 0, 'WAITING');
      // Focus goes to the question.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.closest('[data-kestrel-part="interaction"]') !== null))
        .toBe(true);
      await answerFlight(page);
      await settledWith(page, 0, 'COMPLETED');
      await page.reload();
      await settledWith(page, 0, 'COMPLETED');
      expect(await entries(page).nth(0).locator('[data-kestrel-part="answer"]').innerText()).toContain('fr8341');
      expect(await entries(page).nth(0).locator('[data-kestrel-part="assistant-text"]').innerText()).toBe(
        flight.continuation?.expected.assistantText,
      );
    }));

  it('reloads mid-stream and while waiting without losing anything', () =>
    withPage(async (page) => {
      await page.goto('/');
      await say(page, 'Extract the invoice', 'completed-payload');
      await settledWith(page, 0, 'COMPLETED');
      await say(page, 'Book me a flight to Paris', flight.name);
      await settledWith(page, 1, 'WAITING');
      const sessionId = sessionIdOf(page);
      await page.reload();
      expect(sessionIdOf(page)).toBe(sessionId);
      // The settled run with its payload, and the question, still answerable.
      await settledWith(page, 0, 'COMPLETED');
      expect(await entries(page).nth(0).locator('[data-kestrel-part="payload"]').count()).toBe(1);
      await settledWith(page, 1, 'WAITING');
      await screenshot(page, 'chat-reload-while-waiting');
      await answerFlight(page);
      await settledWith(page, 1, 'COMPLETED');

      await paceEvents(page, 150);
      await say(page, 'And the capital of Australia?');
      await lastEntry(page).locator('[data-kestrel-part="draft"]').filter({ hasText: 'Canberra' }).waitFor();
      await page.reload();
      expect(sessionIdOf(page)).toBe(sessionId);
      await screenshot(page, 'chat-reload-mid-stream');
      await settledWith(page, 2, 'COMPLETED');
      expect(await entries(page).count()).toBe(3);
      expect(await entries(page).nth(2).locator('[data-kestrel-part="assistant-text"]').innerText()).toBe(
        completedText,
      );
      expect(await entries(page).nth(0).locator('[data-kestrel-part="payload"]').count()).toBe(1);
      expect(await entries(page).nth(1).locator('[data-kestrel-part="answer"]').innerText()).toContain('fr8341');
    }));

  it('queues a message sent while a run streams, and sends it when the run settles', () =>
    withPage(async (page) => {
      await paceEvents(page, 120);
      await page.goto('/');
      await say(page, 'First question');
      await lastEntry(page).locator('[data-kestrel-part="draft"]').waitFor();
      await say(page, 'Second question');
      const queued = entries(page).nth(1);
      expect(await queued.getAttribute('data-state')).toBe('queued');
      expect(await page.locator('[data-kestrel-part="session-status"]').innerText()).toContain('queued');
      await screenshot(page, 'chat-queued');
      await settledWith(page, 0, 'COMPLETED');
      await settledWith(page, 1, 'COMPLETED');
      expect(await entries(page).nth(1).locator('[data-kestrel-part="message"]').innerText()).toContain(
        'Second question',
      );
    }));

  it('loads older messages at the top by itself, keeping the reading position, up to the start', () =>
    withPage(async (page) => {
      await page.goto('/?session=demo-long');
      await page.locator('[data-kestrel-part="load-older"][data-state="more"]').waitFor();
      const firstPage = await entries(page).count();
      expect(firstPage).toBe(20);
      const readingText = await entries(page)
        .first()
        .locator('[data-kestrel-part="message"] [data-kestrel-text]')
        .innerText();
      // Scrolled to the top, the next page loads by itself.
      await page.getByRole('log', { name: 'Conversation' }).evaluate((thread) => thread.scrollTo({ top: 0 }));
      await expect.poll(() => entries(page).count()).toBe(40);
      // What the person was reading is still in view, not pushed down by the page that arrived above it.
      const inView = await page
        .locator(ENTRY, { hasText: readingText })
        .first()
        .evaluate((entry) => {
          const thread = entry.closest('[role="log"]')!.getBoundingClientRect();
          const box = entry.getBoundingClientRect();
          return box.bottom > thread.top && box.top < thread.bottom;
        });
      expect(inView).toBe(true);
      await screenshot(page, 'chat-load-older');
      // And again, up to the start of the conversation (the button is tested in the component tests).
      await page.getByRole('log', { name: 'Conversation' }).evaluate((thread) => thread.scrollTo({ top: 0 }));
      await page.locator('[data-kestrel-part="load-older"][data-state="complete"]').waitFor();
      expect(await entries(page).count()).toBe(45);
    }));

  it('starts a new conversation, and keeps the RunView page reachable', () =>
    withPage(async (page) => {
      await page.goto('/');
      await say(page, 'Hello');
      await page.waitForURL((url) => url.searchParams.has('session'));
      await page.getByRole('button', { name: 'New conversation' }).click();
      expect(sessionIdOf(page)).toBeNull();
      expect(await entries(page).count()).toBe(0);
      await page.getByRole('link', { name: 'RunView' }).click();
      await page.getByRole('heading', { name: 'Drop-in RunView' }).waitFor();
    }));
});
