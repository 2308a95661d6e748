import { getScenario } from '@kestrel/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerInteraction } from './answer-interaction.js';
import { expectAccessiblePage, withPage as withDemoPage } from './page-checks.js';
import { launchChromium, paceEvents, screenshot } from './browser.js';
import { RUN, draftsSeen, part, phasesSeen, runIdInUrl, startScenario, waitForEnd } from './run-view.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const withPage = (run: (page: Page) => Promise<void>) => withDemoPage(browser, run);

const completedText = getScenario('completed-text').expected.assistantText ?? '';
const runIdOf = (url: string) => new URL(url).searchParams.get('run');

describe('reloads', () => {
  it('resumes a streaming run after a reload, without duplicated text', () =>
    withPage(async (page) => {
      await paceEvents(page, 120);
      await startScenario(page, 'completed-text');
      await page.locator(part('draft')).filter({ hasText: 'Canberra' }).waitFor();
      const runId = await runIdInUrl(page);
      await page.reload();
      expect(runIdOf(page.url())).toBe(runId);
      await page.locator(part('draft')).waitFor();
      await screenshot(page, 'reload-mid-stream');
      await waitForEnd(page, 'settled');
      expect(await page.locator(RUN).getAttribute('data-status')).toBe('COMPLETED');
      expect(await page.locator(part('assistant-text')).innerText()).toBe(completedText);
      // Every draft the reloaded page showed was a prefix of the answer: nothing replayed twice.
      const drafts = await draftsSeen(page);
      expect(drafts.length).toBeGreaterThan(0);
      for (const draft of drafts) expect(completedText.startsWith(draft.trimEnd())).toBe(true);
    }));

  it('brings a waiting prompt back after a reload, and it can still be answered', () =>
    withPage(async (page) => {
      const scenario = getScenario('waiting-choice-single');
      await startScenario(page, scenario.name);
      await page.locator(part('interaction')).waitFor();
      await page.reload();
      const prompt = page.locator(part('interaction'));
      await prompt.waitFor();
      expect(await prompt.innerText()).toContain('Which flight should I book?');
      expect(await page.locator(RUN).getAttribute('data-status')).toBe('WAITING');
      await screenshot(page, 'reload-while-waiting');
      await answerInteraction(
        prompt,
        { id: 'int_choice_single', kind: 'choice', prompt: '', options: [{ id: 'fr8341', label: 'FR 8341, 12:40' }] },
        { kind: 'choice', selected: ['fr8341'] },
      );
      await page.locator(`${RUN}[data-status="COMPLETED"]`).waitFor();
      expect(await page.locator(part('assistant-text')).innerText()).toBe(
        scenario.continuation?.expected.assistantText,
      );
    }));
});

describe('connection trouble', () => {
  it('shows a dropped connection as reconnecting, then recovers the run', () =>
    withPage(async (page) => {
      // Hold the resume request a moment, so the reconnecting state can be looked at.
      await page.route('**/v1/runs/*/events', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      await startScenario(page, 'dropped-mid-stream');
      const connection = page.locator(`${RUN}[data-phase="reconnecting"] [data-kestrel-part="connection"]`);
      await connection.waitFor();
      expect(await connection.getAttribute('data-state')).toBe('reconnecting');
      expect(await page.locator(part('draft')).innerText()).toContain('Paris has about 2.1 million inhabitants');
      await screenshot(page, 'dropped-reconnecting');
      await waitForEnd(page, 'settled');
      expect(await page.locator(RUN).getAttribute('data-status')).toBe('COMPLETED');
      expect(await page.locator(part('assistant-text')).innerText()).toBe(
        getScenario('dropped-mid-stream').expected.assistantText,
      );
    }));
});

describe('cancel versus leaving the page', () => {
  it('Cancel settles the run CANCELLED', () =>
    withPage(async (page) => {
      await paceEvents(page, 150);
      await startScenario(page, 'completed-text');
      await page.locator(part('draft')).waitFor();
      await page.locator(`${RUN} [data-kestrel-action="cancel"]`).click();
      await waitForEnd(page, 'settled');
      expect(await page.locator(RUN).getAttribute('data-status')).toBe('CANCELLED');
      expect(await page.locator(`${part('outcome')}[data-status="CANCELLED"]`).count()).toBe(1);
      expect(await page.locator(`${part('outcome')}[data-status="FAILED"]`).count()).toBe(0);
      await screenshot(page, 'cancel-button');
    }));

  it('leaving the page only stops watching: the run goes on and can be picked up again', () =>
    withPage(async (page) => {
      await paceEvents(page, 120);
      await startScenario(page, 'completed-text');
      await page.locator(part('draft')).waitFor();
      const runId = await runIdInUrl(page);
      await page.getByRole('link', { name: 'History' }).click();
      const row = page.locator(`tr[data-run-id="${runId}"]`);
      await row.waitFor();
      // Not cancelled by leaving: still running, or already finished on its own.
      await expect.poll(() => row.getAttribute('data-status')).toMatch(/^(running|COMPLETED)$/);
      await screenshot(page, 'history-after-leaving');
      await expectAccessiblePage(page);
      await row.getByRole('link').click();
      await waitForEnd(page, 'settled');
      expect(runIdOf(page.url())).toBe(runId);
      expect(await page.locator(RUN).getAttribute('data-status')).toBe('COMPLETED');
      expect(await page.locator(part('assistant-text')).innerText()).toBe(completedText);
      expect(await phasesSeen(page)).not.toContain('error');
    }));
});

describe('invoice page (custom UI on useRun)', () => {
  it("shows the assistant's explanation beside the app's invoice table", () =>
    withPage(async (page) => {
      await page.goto('/invoice');
      await page.getByRole('button', { name: 'Extract invoice-2041.pdf' }).click();
      await page.locator('[data-testid="invoice-run"][data-phase="settled"]').waitFor();
      expect(await page.getByTestId('explanation').innerText()).toBe(
        getScenario('completed-payload').expected.assistantText,
      );
      const table = page.getByTestId('invoice-table');
      expect(await table.locator('caption').innerText()).toBe('Invoice INV-2041 from Northwind Traders');
      expect(await table.getByRole('row').count()).toBe(4);
      expect(await page.getByTestId('invoice-total').innerText()).toBe('€1,260.50');
      await screenshot(page, 'invoice-extracted');
      await expectAccessiblePage(page);
    }));

  it('shows a payload that fails the schema as invalid, with what is wrong, and no table', () =>
    withPage(async (page) => {
      await page.goto('/invoice');
      await page.getByRole('button', { name: 'Extract a damaged invoice' }).click();
      const invalid = page.getByTestId('invoice-invalid');
      await invalid.waitFor();
      expect(await invalid.innerText()).toContain('currency');
      expect(await page.getByTestId('invoice-table').count()).toBe(0);
      await screenshot(page, 'invoice-invalid');
      await expectAccessiblePage(page);
    }));
});
