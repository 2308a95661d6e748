import { parseRunCompletedEvent, type RunOutput } from '@kestrel/core';
import { scenarioEvents, scenarios, type Scenario, type ScenarioExpectation } from '@kestrel/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { answerInteraction } from './answer-interaction.js';
import { collectPageErrors, expectAccessiblePage } from './page-checks.js';
import { launchChromium, newPage, screenshot } from './browser.js';
import { RUN, part, phasesSeen, runIdInUrl, startScenario, waitForEnd } from './run-view.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function terminalOutput(steps: Scenario['steps']): RunOutput {
  const wire = scenarioEvents(steps).find((event) => event.type === 'run.completed');
  if (wire === undefined) throw new Error('no terminal event');
  return parseRunCompletedEvent(wire).output;
}

/**
 * A COMPLETED answer whose last root turn did not end normally carries a visible note, said once by the status
 * region; a normal finish carries none. `finishReason` undefined: the scenario does not say, so nothing is checked.
 */
async function expectFinishNotice(page: Page, finishReason: string | null | undefined) {
  if (finishReason === undefined) return;
  const notice = page.locator(part('finish-notice'));
  if (finishReason === null || finishReason === 'completed') {
    expect(await notice.count()).toBe(0);
    return;
  }
  // data-kind is the public attribute: the reason itself for the kinds the kit words, `other` for any newer one.
  const kind = ['max-tokens', 'error', 'tool-calls', 'cancelled'].includes(finishReason) ? finishReason : 'other';
  expect(await notice.getAttribute('data-kind')).toBe(kind);
  const said = await notice.innerText();
  expect(said.length).toBeGreaterThan(0);
  expect(await page.locator(part('status')).innerText()).toContain(said);
}

/** What a person must see for a settled outcome, and must not see of the other outcomes. */
async function expectOutcome(
  page: Page,
  output: RunOutput,
  expected: Pick<ScenarioExpectation, 'assistantText' | 'payload' | 'finishReason'>,
) {
  const { assistantText: expectedText, payload } = expected;
  const other = (status: string) => page.locator(`${part('outcome')}[data-status="${status}"]`);
  switch (output.status) {
    case 'COMPLETED':
      if (typeof expectedText === 'string')
        await expect.poll(() => page.locator(part('assistant-text')).innerText()).toContain(expectedText);
      expect(await page.locator(part('draft')).count()).toBe(0);
      if (payload === 'valid') {
        const panel = page.locator(`${part('payload')}[data-payload="valid"]`);
        expect(await panel.getByRole('table').locator('caption').innerText()).toBe(
          'Invoice INV-2041 from Northwind Traders',
        );
        expect(await panel.getByTestId('invoice-total').innerText()).toBe('€1,260.50');
      } else if (payload === 'invalid') {
        expect(await page.locator(`${part('payload')}[data-payload="invalid"]`).count()).toBe(1);
      } else {
        expect(await page.locator(part('payload')).count()).toBe(0);
      }
      await expectFinishNotice(page, expected.finishReason);
      break;
    case 'FAILED':
      expect(await other('FAILED').innerText()).toContain(output.error.message);
      expect(await other('CANCELLED').count()).toBe(0);
      break;
    case 'CANCELLED':
      expect(await other('CANCELLED').innerText()).toContain(output.cancellation.reason);
      expect(await other('FAILED').count()).toBe(0);
      break;
    case 'WAITING': {
      const prompt = page.locator(part('interaction'));
      expect(await prompt.getAttribute('data-kind')).toBe(output.interaction.kind);
      expect(await prompt.innerText()).toContain(output.interaction.prompt);
      break;
    }
    default:
      return output satisfies never;
  }
  if (output.status !== 'COMPLETED') expect(await page.locator(part('finish-notice')).count()).toBe(0);
  expect(await page.locator(part('error')).count()).toBe(0);
}

describe('every shared scenario, as a person sees it in <RunView>', () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (name, scenario) => {
    const { context, page } = await newPage(browser, inject('demoUrl'));
    const pageErrors = collectPageErrors(page);
    try {
      await startScenario(page, name);
      const { expected } = scenario;
      const end = await waitForEnd(page, expected.phase);
      expect(end.phase).toBe(expected.phase);
      expect(await runIdInUrl(page)).toMatch(/^run_/);

      if (expected.phase === 'settled') {
        expect(end.status).toBe(expected.status);
        await expectOutcome(page, terminalOutput(scenario.steps), expected);
      } else {
        // No outcome: an error part saying what broke, and nothing that reads as a result (nor a note on one).
        expect(end.status).toBeNull();
        expect(await page.locator(part('finish-notice')).count()).toBe(0);
        expect(await page.locator(part('error')).getAttribute('data-error-kind')).toBe(expected.errorKind);
        expect(await page.locator(part('assistant-text')).count()).toBe(0);
        expect(await page.locator(part('outcome')).count()).toBe(0);
        expect(await page.locator(part('payload')).count()).toBe(0);
      }
      if (scenario.group === 'transport' && expected.phase === 'settled') {
        // The drop was shown as what it was, then the run carried on to its outcome.
        const phases = await phasesSeen(page);
        expect(phases).toContain('reconnecting');
        expect(phases.indexOf('reconnecting')).toBeLessThan(phases.lastIndexOf('settled'));
      }
      await screenshot(page, name);
      await expectAccessiblePage(page);

      if (scenario.continuation !== undefined) {
        const output = terminalOutput(scenario.steps);
        if (output.status !== 'WAITING') throw new Error(`${name}: a continuation needs a WAITING output`);
        await answerInteraction(page.locator(part('interaction')), output.interaction, scenario.continuation.answer);
        await page.locator(`${RUN}[data-phase="settled"][data-status="COMPLETED"]`).waitFor();
        await expectOutcome(page, terminalOutput(scenario.continuation.steps), {
          ...scenario.continuation.expected,
          payload: 'absent',
        });
        expect(await page.locator(part('interaction')).count()).toBe(0);
        await screenshot(page, `${name}--answered`);
      }
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
