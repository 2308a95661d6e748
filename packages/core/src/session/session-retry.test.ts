import { describe, expect, it } from 'vitest';
import { createRunClient } from '../client/create-run-client.js';
import { createSessionController } from './create-session-controller.js';
import type { SessionConcurrency, SessionState } from './session-types.js';
import { kestrel, statuses, track, until } from './session.test-helper.js';

/* A retry of a FAILED run is a new run with the same input (docs/sessions.md#retrying): the thread shows it where the server records it. */

const outcomes = (state: SessionState) =>
  state.entries.map((entry) => `${entry.status}:${entry.run.getState().output?.status ?? '-'}`);

/** A session of three settled runs (COMPLETED, FAILED retryable, COMPLETED), read from its history. */
async function threeRuns(concurrency?: SessionConcurrency, delayMs?: number) {
  const sessionId = 'ses_retry';
  const server = await kestrel({
    seed: [{ sessionId, runs: 3, scenarios: ['completed-text', 'failed-retryable', 'completed-text'] }],
  });
  const session = track(createSessionController({ client: server.client({ delayMs }), sessionId, concurrency }));
  session.start();
  const loaded = await until(session, (state) => state.history === 'complete');
  const failed = loaded.entries[1];
  if (failed === undefined) throw new Error('expected three entries');
  return { server, session, sessionId, loaded, failed };
}

describe('createSessionController: retrying a FAILED run', () => {
  it('appends the new run at the end and keeps the FAILED entry, as a reload of the session shows it', async () => {
    const { server, session, sessionId, loaded, failed } = await threeRuns();
    expect(outcomes(loaded)).toEqual(['settled:COMPLETED', 'settled:FAILED', 'settled:COMPLETED']);
    const failedState = failed.run.getState();

    const result = session.retry(failed.key);
    const done = await until(session, (state) => state.entries.length === 4 && state.entries[3]?.status === 'settled');
    expect(outcomes(done)).toEqual(['settled:COMPLETED', 'settled:FAILED', 'settled:COMPLETED', 'settled:COMPLETED']);
    expect(done.entries[1]).toBe(failed); // untouched: same entry, same run, same outcome
    expect(done.entries[1]?.run.getState()).toBe(failedState);
    expect(done.entries[3]).toMatchObject({ input: failed.input, origin: 'local' });
    expect(server.sent('POST', /\/runs$/).map((request) => request.path)).toEqual([`/v1/sessions/${sessionId}/runs`]);
    expect(result).toEqual({ type: 'sent', key: done.entries[3]?.key });

    const reloaded = track(createSessionController({ client: server.client(), sessionId }));
    reloaded.start();
    const read = await until(reloaded, (state) => state.history === 'complete');
    expect(read.entries.map((entry) => entry.runId)).toEqual(done.entries.map((entry) => entry.runId));
    expect(outcomes(read)).toEqual(outcomes(done));
  });

  it('queue: a retry while a run is live waits behind it, at the end, and is sent once (no 409)', async () => {
    const { server, session, failed } = await threeRuns('queue', 15);
    session.send('a long answer please');
    await until(session, (state) => state.entries[3]?.status === 'live');
    const result = session.retry(failed.key);
    const queued = session.getState();
    expect(statuses(queued)).toEqual(['settled', 'settled', 'settled', 'live', 'queued']);
    expect(queued.entries[4]?.input).toBe(failed.input);
    expect(queued.activeKey).toBe(queued.entries[3]?.key);
    expect(result).toEqual({ type: 'queued', key: queued.entries[4]?.key });
    const done = await until(session, (state) => state.entries[4]?.status === 'settled', 6_000);
    expect(outcomes(done).slice(1)).toEqual([
      'settled:FAILED',
      'settled:COMPLETED',
      'settled:COMPLETED',
      'settled:COMPLETED',
    ]);
    expect(
      server.requests.filter((request) => request.method === 'POST' && request.body.includes(failed.input)),
    ).toHaveLength(1);
  });

  it('reject: a retry while a run is live is refused, nothing is kept or sent, and it goes once the run settled', async () => {
    const { server, session, failed } = await threeRuns('reject', 15);
    session.send('a long answer please');
    await until(session, (state) => state.entries[3]?.status === 'live');
    const result = session.retry(failed.key);
    expect(session.getState().entries).toHaveLength(4);
    await until(session, (state) => state.entries[3]?.status === 'settled', 6_000);
    expect(
      server.requests.filter((request) => request.method === 'POST' && request.body.includes(failed.input)),
    ).toHaveLength(0);
    expect(result).toEqual({ type: 'rejected', reason: 'run-in-progress' });
    expect(session.retry(failed.key)).toMatchObject({ type: 'sent' });
    await until(session, (state) => state.entries[4]?.status === 'settled');
  });

  it('a retry that meets 409 (a run live from another tab) waits at the end, behind that run, never at the top', async () => {
    const { server, session, sessionId, failed } = await threeRuns();
    const otherTab = createRunClient({ baseUrl: server.baseUrl, headers: { 'x-kestrel-delay': '25' } });
    const live = otherTab.start({ sessionId, input: 'from another tab' });
    await new Promise<void>((resolve) => live.subscribe(() => live.getState().runId !== null && resolve()));
    session.retry(failed.key);
    const waiting = await until(
      session,
      (state) => state.entries.length === 5 && state.entries[4]?.status === 'queued',
    );
    expect(waiting.entries.map((entry) => entry.input).slice(3)).toEqual(['from another tab', failed.input]);
    const done = await until(session, (state) => state.entries[4]?.status === 'settled', 6_000);
    expect(outcomes(done)).toEqual([
      'settled:COMPLETED',
      'settled:FAILED',
      'settled:COMPLETED',
      'settled:COMPLETED',
      'settled:COMPLETED',
    ]);
    live.detach();
  });

  it('says when there is nothing to retry: an unknown key, or a run that settled COMPLETED', async () => {
    const { session, loaded } = await threeRuns();
    expect(session.retry('no-such-entry')).toEqual({ type: 'rejected', reason: 'not-retryable' });
    expect(session.retry(loaded.entries[0]?.key ?? '')).toEqual({ type: 'rejected', reason: 'not-retryable' });
    expect(session.getState().entries).toHaveLength(3);
  });

  it('reject: a message that could not be sent is not resent while a run is live; it stays failed-to-send', async () => {
    let refuse = true;
    const server = await kestrel();
    const session = track(
      createSessionController({
        client: server.client({ delayMs: 15, fault: () => (refuse ? 'http-503' : undefined) }),
        concurrency: 'reject',
      }),
    );
    const hello = session.send('hello');
    await until(session, (state) => state.entries[0]?.status === 'failed-to-send');
    refuse = false;
    session.send('a long answer please');
    await until(session, (state) => state.entries[1]?.status === 'live');
    const result = session.retry(hello.type === 'sent' ? hello.key : '');
    expect(statuses(session.getState())).toEqual(['failed-to-send', 'live']);
    expect(result).toEqual({ type: 'rejected', reason: 'run-in-progress' });
    await until(session, (state) => state.entries[1]?.status === 'settled', 6_000);
    expect(session.retry(hello.type === 'sent' ? hello.key : '')).toMatchObject({ type: 'sent' });
    const done = await until(session, (state) => state.entries[1]?.status === 'settled' && state.entries.length === 2);
    expect(done.entries.map((entry) => entry.input)).toEqual(['a long answer please', 'hello']);
  });
});
