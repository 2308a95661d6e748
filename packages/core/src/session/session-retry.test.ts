import { describe, expect, it } from 'vitest';
import { createRunClient } from '../client/create-run-client.js';
import { createSessionController } from './create-session-controller.js';
import type { SessionConcurrency, SessionState } from './session-types.js';
import type { LoopbackKestrel } from '../client/loopback-kestrel.test-helper.js';
import { kestrel, statuses, track, until } from './session.test-helper.js';

/* A retry of a FAILED run is a new run with the same input (docs/sessions.md#retrying): the thread shows it where the server records it. */

/** The POSTs that carried `input`. */
const posts = (server: LoopbackKestrel, input: string) =>
  server.requests.filter((request) => request.method === 'POST' && request.body.includes(input));

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
    // Untouched: same entry and run, same outcome (a new binding only so that Try again is offered no more).
    expect(done.entries[1]).toMatchObject({ key: failed.key, runId: failed.runId, status: 'settled' });
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

  it('sends the input once however often it is retried: later retries name the retry, and Try again is gone', async () => {
    const { server, session, failed } = await threeRuns(undefined, 10);
    const first = session.retry(failed.key);
    const retriedKey = session.getState().entries[3]?.key;
    expect(first).toEqual({ type: 'sent', key: retriedKey });
    expect(session.retry(failed.key)).toEqual({ type: 'already-retried', key: retriedKey });
    failed.run.retry(); // the binding the button was rendered with
    expect(session.getState().entries).toHaveLength(4);
    expect(session.getState().entries[1]?.run.getRetryMode()).toBeNull();
    expect(failed.run.getRetryMode()).toBeNull();
    const done = await until(session, (state) => state.entries[3]?.status === 'settled', 6_000);
    expect(outcomes(done)).toEqual(['settled:COMPLETED', 'settled:FAILED', 'settled:COMPLETED', 'settled:COMPLETED']);
    expect(done.entries[1]?.run.getState().output?.status).toBe('FAILED'); // the outcome stays shown
    expect(posts(server, failed.input)).toHaveLength(1);
  });

  it('cancel-previous: a second retry does not cancel the first one', async () => {
    const { server, session, failed } = await threeRuns('cancel-previous', 10);
    session.retry(failed.key);
    const live = await until(session, (state) => state.entries[3]?.status === 'live');
    expect(session.retry(failed.key)).toEqual({ type: 'already-retried', key: live.entries[3]?.key });
    const done = await until(session, (state) => state.entries[3]?.status === 'settled', 6_000);
    expect(outcomes(done)).toEqual(['settled:COMPLETED', 'settled:FAILED', 'settled:COMPLETED', 'settled:COMPLETED']);
    expect(server.sent('POST', /\/cancel$/)).toHaveLength(0);
    expect(posts(server, failed.input)).toHaveLength(1);
  });

  it('a retry taken back before it was sent (withdrawn) leaves the FAILED entry retryable again', async () => {
    const { server, session, failed } = await threeRuns('queue', 15);
    session.send('a long answer please');
    await until(session, (state) => state.entries[3]?.status === 'live');
    const queued = session.retry(failed.key);
    expect(session.getState().entries[1]?.run.getRetryMode()).toBeNull();
    session.withdraw(queued.type === 'queued' ? queued.key : '');
    expect(session.getState().entries[1]?.run.getRetryMode()).toBe('restart');
    expect(session.retry(failed.key)).toMatchObject({ type: 'queued' });
    await until(session, (state) => state.entries[4]?.status === 'settled', 6_000);
    expect(posts(server, failed.input)).toHaveLength(1);
  });

  it('after a reload, a FAILED run whose input came again later offers no retry; one without still does', async () => {
    const sessionId = 'ses_reloaded';
    const server = await kestrel({
      seed: [{ sessionId, runs: 3, scenarios: ['failed-retryable', 'completed-text', 'failed-retryable'] }],
    });
    const here = track(createSessionController({ client: server.client(), sessionId }));
    here.start();
    const loaded = await until(here, (state) => state.history === 'complete');
    here.retry(loaded.entries[0]?.key ?? '');
    await until(here, (state) => state.entries[3]?.status === 'settled');

    const reloaded = track(createSessionController({ client: server.client(), sessionId }));
    reloaded.start();
    const read = await until(reloaded, (state) => state.history === 'complete');
    expect(outcomes(read)).toEqual(['settled:FAILED', 'settled:COMPLETED', 'settled:FAILED', 'settled:COMPLETED']);
    expect(read.entries.map((entry) => entry.run.getRetryMode())).toEqual([null, null, 'restart', null]);
    expect(reloaded.retry(read.entries[0]?.key ?? '')).toEqual({ type: 'already-retried', key: read.entries[3]?.key });
    expect(reloaded.getState().entries).toHaveLength(4);
    expect(server.sent('POST', /\/runs$/)).toHaveLength(1);
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
    expect(session.getState().entries[1]?.run.getRetryMode()).toBe('restart'); // a refused retry is not remembered
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

describe('createSessionController: after dispose', () => {
  it('sends nothing: a message that could not be sent, a FAILED run and a new message are refused as disposed', async () => {
    let refuse = false;
    const sessionId = 'ses_disposed';
    const server = await kestrel({
      seed: [{ sessionId, runs: 1, scenarios: ['failed-retryable'] }],
    });
    const session = track(
      createSessionController({
        client: server.client({ fault: () => (refuse ? 'http-503' : undefined) }),
        sessionId,
      }),
    );
    session.start();
    await until(session, (state) => state.history === 'complete');
    refuse = true;
    const hello = session.send('hello');
    await until(session, (state) => state.entries[1]?.status === 'failed-to-send');
    refuse = false;
    session.dispose();
    const helloKey = hello.type === 'sent' ? hello.key : '';
    const failedKey = session.getState().entries[0]?.key ?? '';
    expect(session.retry(helloKey)).toEqual({ type: 'rejected', reason: 'disposed' });
    expect(session.retry(failedKey)).toEqual({ type: 'rejected', reason: 'disposed' });
    expect(session.send('stale')).toEqual({ type: 'rejected', reason: 'disposed' });
    expect(statuses(session.getState())).toEqual(['settled', 'failed-to-send']);

    session.start(); // started again, it sends: the message goes now, and nothing was sent while disposed
    expect(session.retry(helloKey)).toEqual({ type: 'sent', key: helloKey });
    await until(session, (state) => state.entries[1]?.status === 'settled');
    expect(server.sent('POST', /\/runs$/).map((request) => JSON.parse(request.body).input)).toEqual(['hello', 'hello']);
  });
});
