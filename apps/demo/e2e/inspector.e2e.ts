import { createRunClient, parseRunRecording } from '@kestrel/core';
import { createScenarioFetch, scenarioFromRecording } from '@kestrel/testing';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, newPage, screenshot } from './browser.js';
import { collectPageErrors, expectAccessiblePage } from './page-checks.js';
import { part, startScenario, waitForEnd } from './run-view.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the run inspector in the demo', () => {
  it('records a run, downloads the recording, and replays it through the client to the same final state', async () => {
    const { context, page } = await newPage(browser, inject('demoUrl'));
    const pageErrors = collectPageErrors(page);
    try {
      await page.goto('/run-view?inspect');
      await startScenario(page, 'dropped-mid-stream');
      const shown = await waitForEnd(page, 'settled');
      const shownText = await page.locator(part('assistant-text')).innerText();
      const inspector = page.locator('[data-kestrel-inspector]');
      // The recording saw the drop and the resume, and the timeline shows them between the events.
      await inspector.getByRole('option', { name: /resumed after seq \d+/ }).waitFor();
      await inspector.getByRole('option', { name: /reconnecting \(attempt 1/ }).waitFor();
      await inspector.getByRole('listbox', { name: 'Timeline' }).focus();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      expect(await inspector.locator('[data-kestrel-inspector-part="state"]').innerText()).toMatch(/phase\s+settled/);
      await screenshot(page, 'inspector-recorded-run');
      await expectAccessiblePage(page);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        inspector.getByRole('button', { name: 'Download recording' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^run_[\w-]+\.kestrel-recording\.json$/);
      const recording = parseRunRecording(JSON.parse(await readFile(await download.path(), 'utf8')));
      expect(recording.final).toMatchObject({ phase: 'settled', status: shown.status });

      // Replay: the recording as a scenario, played by the in-memory Kestrel, through a real run client.
      const scenario = scenarioFromRecording(recording);
      const client = createRunClient({
        baseUrl: 'http://kestrel.replay',
        fetch: createScenarioFetch({ scenarios: [scenario], defaultScenario: scenario.name }),
        reconnect: { baseDelayMs: 10, maxDelayMs: 50, jitter: 0 },
      });
      const handle = client.start({ input: scenario.input });
      const settled = await handle.result;
      const replayed = handle.getState();
      expect({ phase: replayed.phase, status: replayed.status, lastSeq: replayed.lastSeq }).toEqual({
        phase: recording.final.phase,
        status: recording.final.status,
        lastSeq: recording.final.lastSeq,
      });
      expect(replayed.events.length).toBe(recording.final.eventCount);
      // The same events in the same order (the mock numbers each run it plays, so the run id differs).
      const recordedEvents = recording.entries.flatMap((entry) =>
        entry.type === 'message' ? [(JSON.parse(entry.data) as { type: string; seq: number }).type] : [],
      );
      expect(replayed.events.toArray().map((event) => event.type)).toEqual(recordedEvents);
      expect(settled.output.status === 'COMPLETED' ? settled.output.assistantText : null).toBe(shownText);
      expect(replayed.finishReason).toBe('completed');
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
