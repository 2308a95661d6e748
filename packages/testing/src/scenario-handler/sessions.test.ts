import { parseRunListPage } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { getScenario } from '../scenarios.js';
import {
  answer,
  errorBody,
  JSON_TYPE,
  readStream,
  runIdOf,
  sessionIdOf,
  startKestrel,
  startRun,
} from './loopback.test-helper.js';

async function page(kestrel: { url: string }, sessionId: string, query = '') {
  const response = await fetch(`${kestrel.url}/v1/sessions/${sessionId}/runs${query}`, {
    headers: { accept: JSON_TYPE },
  });
  expect(response.status).toBe(200);
  return parseRunListPage(await response.json(), sessionId);
}

describe('the mock Kestrel keeps sessions', () => {
  it('lists a seeded history newest page first, oldest first within a page, 20 by default, paging back by cursor', async () => {
    const kestrel = await startKestrel({ seed: [{ sessionId: 'ses_long', runs: 45 }] });
    const first = await page(kestrel, 'ses_long');
    expect(first.runs).toHaveLength(20);
    expect(first.runs[0]?.input).toMatch(/\(#26\)$/);
    expect(first.runs.at(-1)?.input).toMatch(/\(#45\)$/);
    expect(first.runs.every((run) => run.live === false && run.result?.output.status === 'COMPLETED')).toBe(true);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(kestrel, 'ses_long', `?before=${first.nextCursor}&limit=100`);
    expect(second.runs.map((run) => run.input.match(/#(\d+)/)?.[1])).toEqual(
      Array.from({ length: 25 }, (_, index) => String(index + 1)),
    );
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a cursor it never gave out with a 400, and an unknown session with 404 session_not_found', async () => {
    const kestrel = await startKestrel({ seed: [{ sessionId: 'ses_a', runs: 3 }] });
    const bad = await fetch(`${kestrel.url}/v1/sessions/ses_a/runs?before=elsewhere`);
    expect(bad.status).toBe(400);
    expect(await errorBody(bad)).toMatchObject({ code: 'invalid_cursor' });
    const missing = await fetch(`${kestrel.url}/v1/sessions/ses_nope/runs`);
    expect(missing.status).toBe(404);
    expect(await errorBody(missing)).toMatchObject({ code: 'session_not_found' });
  });

  it('answers 409 run_in_progress to a second start while a run of the session is live, and lists that run as live', async () => {
    const kestrel = await startKestrel();
    const first = await startRun(kestrel, 'completed-text', { headers: { 'x-kestrel-delay': '5000' } });
    const sessionId = sessionIdOf(first);
    const second = await startRun(kestrel, 'completed-text', { sessionId });
    expect(second.status).toBe(409);
    expect(await errorBody(second)).toMatchObject({ code: 'run_in_progress' });
    const listed = await page(kestrel, sessionId);
    expect(listed.runs).toMatchObject([{ runId: runIdOf(first), live: true, input: 'hello' }]);
    expect(listed.runs[0]?.result).toBeUndefined();
    await first.body?.cancel();
  });

  it('starts the next run of a session once the live one settled (a WAITING run is settled)', async () => {
    const kestrel = await startKestrel();
    const first = await startRun(kestrel, 'waiting-text');
    await readStream(first);
    const sessionId = sessionIdOf(first);
    const second = await startRun(kestrel, 'completed-text', { sessionId, body: { input: 'next' } });
    expect(second.status).toBe(200);
    await readStream(second);
    const listed = await page(kestrel, sessionId);
    expect(listed.runs.map((run) => [run.input, run.result?.output.status])).toEqual([
      ['hello', 'WAITING'],
      ['next', 'COMPLETED'],
    ]);
  });

  it('records each answer with its interaction and attempt, and lists the run as settled after its continuation', async () => {
    const kestrel = await startKestrel();
    const scenario = getScenario('waiting-choice-single');
    const started = await startRun(kestrel, scenario.name);
    await readStream(started);
    const sessionId = sessionIdOf(started);
    const answered = await answer(kestrel, sessionId, 'int_choice_single', scenario.continuation?.answer);
    await readStream(answered);
    const listed = await page(kestrel, sessionId);
    expect(listed.runs).toMatchObject([
      {
        runId: runIdOf(started),
        attempt: 2,
        live: false,
        answers: [{ interactionId: 'int_choice_single', attempt: 1, answer: { kind: 'choice', selected: ['fr8341'] } }],
        result: { output: { status: 'COMPLETED' } },
      },
    ]);
  });
});

describe('seeding', () => {
  it('refuses a seed it cannot play, naming it', async () => {
    await expect(startKestrel({ seed: [{ sessionId: 'ses_x', runs: -1 }] })).rejects.toThrow(/runs must be an integer/);
    await expect(startKestrel({ seed: [{ sessionId: 'ses_x', runs: 1, scenarios: ['nope'] }] })).rejects.toThrow(
      /"nope"/,
    );
  });
});
