import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRunClient } from './create-run-client.js';

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel({ keepAliveMs: 25 });
});
afterAll(() => kestrel.close());

it('runs against the mock Kestrel as an app would: scenario by input prefix, WAITING, answer, then the JSON route', async () => {
  const client = createRunClient({ baseUrl: kestrel.url, heartbeatTimeoutMs: 500 });
  const waiting = client.start({ input: '[scenario:waiting-choice-single] Book me a flight to Lisbon on Friday' });
  const settled = await waiting.result;
  expect(settled.output).toMatchObject({ status: 'WAITING', interaction: { kind: 'choice' } });
  const next = await waiting.respond({ kind: 'choice', selected: ['fr8341'] });
  expect((await next.result).output).toMatchObject({
    status: 'COMPLETED',
    assistantText: expect.stringContaining('FR 8341'),
  });

  const json = await client.run({ input: '[scenario:failed-retryable] Convert 200 USD to EUR' });
  expect(json.output).toMatchObject({ status: 'FAILED', error: { retryable: true } });
});
