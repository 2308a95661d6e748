import { createRunClient, createRunController } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockKestrel, type MockKestrel } from './mock.js';

/* An app's "retry, then it works" journey against the mock Kestrel over 127.0.0.1, as docs/mock-kestrel.md shows. */

const scenario = getScenario('failed-retryable-then-completed');
let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel();
});
afterAll(() => kestrel.close());

async function settled(run: ReturnType<typeof createRunController>) {
  await expect.poll(() => run.getState().phase, { timeout: 5_000 }).toBe('settled');
  return run.getState();
}

describe('failed-retryable-then-completed', () => {
  it('fails retryable the first time, and a retry with the same input completes', async () => {
    const run = createRunController({ client: createRunClient({ baseUrl: kestrel.url }) });
    run.start(`[scenario:${scenario.name}] ${scenario.input}`);
    expect(await settled(run)).toMatchObject({ status: 'FAILED', output: { error: { retryable: true } } });
    expect(run.getRetryMode()).toBe('restart');
    const failedRunId = run.getState().runId;

    run.retry();
    await expect.poll(() => run.getState().runId).not.toBe(failedRunId);
    const retried = await settled(run);
    expect(retried.status).toBe('COMPLETED');
    expect(retried.output?.assistantText).toBe(scenario.retry?.expected.assistantText);
  });

  it('fails again for an input it has not played yet: the mock remembers each input apart', async () => {
    const run = createRunController({ client: createRunClient({ baseUrl: kestrel.url }) });
    run.start(`[scenario:${scenario.name}] Convert 50 GBP to EUR`);
    expect((await settled(run)).status).toBe('FAILED');
  });

  it('is the same through the scenario header, and on the JSON route', async () => {
    const client = createRunClient({ baseUrl: kestrel.url, headers: { 'x-kestrel-scenario': scenario.name } });
    expect((await client.run({ input: 'Convert 9 CHF' })).output.status).toBe('FAILED');
    expect((await client.run({ input: 'Convert 9 CHF' })).output.status).toBe('COMPLETED');
  });
});
