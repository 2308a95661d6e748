import { getScenario } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createRunClient } from '../client/create-run-client.js';
import { createSessionController } from './create-session-controller.js';
import { kestrel, recordStatuses, statuses, texts, track, until } from './session.test-helper.js';

const completedText = getScenario('completed-text');

describe('createSessionController: one live run at a time', () => {
  it('queue (default): a message sent while a run is live waits, visibly, and is sent when that run settles', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client({ delayMs: 15 }) }));
    session.send('first');
    expect(session.send('second')).toMatchObject({ type: 'queued' });
    const queued = session.getState();
    expect(statuses(queued)).toEqual(['sending', 'queued']);
    expect(queued.activeKey).toBe(queued.entries[0]?.key);
    const done = await until(session, (state) => statuses(state).join() === 'settled,settled');
    expect(texts(done)).toEqual([completedText.expected.assistantText, completedText.expected.assistantText]);
    expect(server.sent('POST', /\/runs$/)).toHaveLength(2);
  });

  it('queue: a WAITING run holds the queue (its prompt answers it) until answered and settled', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client() }));
    session.send('[scenario:waiting-text] Draft a reply to the landlord');
    await until(session, (state) => state.entries[0]?.status === 'waiting');
    expect(session.send('and then?')).toMatchObject({ type: 'queued' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statuses(session.getState())).toEqual(['waiting', 'queued']);
    expect(server.sent('POST', /\/runs$/)).toHaveLength(1);
    await session.getState().entries[0]?.run.respond({ kind: 'text', text: 'Fix the heating' });
    const done = await until(session, (state) => statuses(state).join() === 'settled,settled');
    expect(done.entries[0]?.answers).toHaveLength(1);
  });

  it('queue: cancel() moves past a WAITING run (it stays answerable) and the queued message goes', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client() }));
    session.send('[scenario:waiting-approval] Email the Q3 report');
    await until(session, (state) => state.entries[0]?.status === 'waiting');
    session.send('never mind, summarise it instead');
    await session.cancel();
    const done = await until(session, (state) => state.entries[1]?.status === 'settled');
    expect(done.entries[0]?.status).toBe('waiting');
    expect(done.activeKey).toBeNull();
  });

  it('queue: withdraw takes a queued message back before it is sent', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client({ delayMs: 10 }) }));
    session.send('first');
    const queued = session.send('second');
    if (queued.type !== 'queued') throw new Error('expected queued');
    session.withdraw(queued.key);
    expect(session.getState().entries).toHaveLength(1);
    await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(server.sent('POST', /\/runs$/)).toHaveLength(1);
  });

  it('reject: a message sent while a run is live or WAITING is refused and nothing is kept', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client(), concurrency: 'reject' }));
    session.send('[scenario:waiting-text] Draft a reply');
    expect(session.send('too soon')).toEqual({ type: 'rejected', reason: 'run-in-progress' });
    await until(session, (state) => state.entries[0]?.status === 'waiting');
    expect(session.send('still too soon')).toEqual({ type: 'rejected', reason: 'run-in-progress' });
    expect(session.getState().entries).toHaveLength(1);
  });

  it('cancel-previous: the live run is cancelled, and the message is sent once it settled CANCELLED', async () => {
    const server = await kestrel();
    const session = track(
      createSessionController({ client: server.client({ delayMs: 30 }), concurrency: 'cancel-previous' }),
    );
    session.send('a long answer please');
    await until(session, (state) => state.entries[0]?.status === 'live');
    expect(session.send('actually, something else')).toMatchObject({ type: 'queued' });
    const done = await until(session, (state) => state.entries[1]?.status === 'settled', 6_000);
    expect(done.entries[0]?.run.getState().status).toBe('CANCELLED');
    expect(done.entries[1]?.run.getState().status).toBe('COMPLETED');
    expect(server.sent('POST', /\/cancel$/)).toHaveLength(1);
  });

  it('handles 409 run_in_progress: the message waits behind the live run it finds, never shown as failed', async () => {
    const server = await kestrel();
    const other = createRunClient({ baseUrl: server.baseUrl, headers: { 'x-kestrel-delay': '25' } });
    const first = other.start({ input: 'from another tab' });
    await first.result; // the session exists
    const sessionId = first.getState().sessionId ?? '';
    const session = track(createSessionController({ client: server.client(), sessionId }));
    session.start();
    await until(session, (state) => state.history === 'complete');
    const live = other.start({ sessionId, input: 'another tab again' });
    await new Promise<void>((resolve) => live.subscribe(() => live.getState().runId !== null && resolve()));
    const seen = recordStatuses(session);
    expect(session.send('mine')).toMatchObject({ type: 'sent' });
    const done = await until(
      session,
      (state) => state.entries.length === 3 && state.entries[2]?.status === 'settled',
      6_000,
    );
    expect(done.entries.map((entry) => entry.input)).toEqual(['from another tab', 'another tab again', 'mine']);
    const mine = seen.get(done.entries[2]?.key ?? '') ?? [];
    expect(mine).not.toContain('failed-to-send');
    expect(mine).toContain('queued');
    expect(
      server.requests.filter((request) => request.method === 'POST' && request.body.includes('mine')),
    ).toHaveLength(2);
    live.detach();
  });

  it('shows a message whose POST failed as failed-to-send, and retry sends it again', async () => {
    let refuse = true;
    const server = await kestrel();
    const session = track(
      createSessionController({ client: server.client({ fault: () => (refuse ? 'http-503' : undefined) }) }),
    );
    const sent = session.send('hello');
    const failed = await until(session, (state) => state.entries[0]?.status === 'failed-to-send');
    expect(failed.entries[0]?.error).toMatchObject({ kind: 'http', status: 503 });
    expect(failed.activeKey).toBeNull();
    refuse = false;
    if (sent.type !== 'sent') throw new Error('expected sent');
    session.retry(sent.key);
    const done = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(done.entries[0]?.error).toBeNull();
  });

  it('retries a retryable FAILED run in the session it learned, never in a new one, also for a run read from history', async () => {
    const server = await kestrel();
    const session = track(createSessionController({ client: server.client() }));
    session.send('[scenario:failed-retryable] Convert 200 USD');
    const failed = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(failed.entries[0]?.run.getRetryMode()).toBe('restart');
    failed.entries[0]?.run.retry();
    await until(session, (state) => state.entries[1]?.status === 'settled');
    expect(server.sent('POST', /\/runs$/).map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${failed.sessionId}/runs`,
    ]);

    const reloaded = track(createSessionController({ client: server.client(), sessionId: failed.sessionId ?? '' }));
    reloaded.start();
    const read = await until(reloaded, (state) => state.history === 'complete');
    // The first FAILED run was retried (the second entry has its input); the retry failed too and is the one to retry.
    expect(read.entries.map((entry) => entry.run.getRetryMode())).toEqual([null, 'restart']);
    read.entries[1]?.run.retry();
    await until(reloaded, (state) => state.entries[2]?.status === 'settled');
    expect(server.sent('POST', /\/runs$/).map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${failed.sessionId}/runs`,
      `/v1/sessions/${failed.sessionId}/runs`,
    ]);
    expect(reloaded.getState().entries[0]?.run.getState().status).toBe('FAILED');
  });

  it('dispose detaches the live run (it goes on on the server); start again re-attaches to it', async () => {
    const server = await kestrel();
    const session = createSessionController({ client: server.client({ delayMs: 20 }) });
    session.send('a long one');
    await until(session, (state) => state.entries[0]?.status === 'live' && state.entries[0].runId !== null);
    session.dispose();
    expect(session.getState().entries[0]?.status).toBe('interrupted');
    expect(session.getState().entries[0]?.run.getState().phase).toBe('detached');
    session.start();
    const done = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(texts(done)).toEqual([completedText.expected.assistantText]);
    session.dispose();
  });
});
