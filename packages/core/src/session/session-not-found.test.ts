import { getScenario } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createSessionController } from './create-session-controller.js';
import { kestrel, statuses, track, until } from './session.test-helper.js';

const question = `[scenario:completed-text] ${getScenario('completed-text').input}`;

/** A fetch like the loopback's, whose server has no listing (every GET of a session's runs answers 405). */
const withoutListing: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  if (request.method === 'GET' && /\/v1\/sessions\/[^/]+\/runs/.test(request.url))
    return Response.json({ error: { code: 'method_not_allowed', message: 'no listing' } }, { status: 405 });
  return fetch(request);
};

describe('a session id the server does not know (expired, deleted, mistyped)', () => {
  it('says not-found from the listing, and the next message starts a new session that the app hears of', async () => {
    const server = await kestrel();
    const learned: string[] = [];
    const tab = track(
      createSessionController({
        client: server.client(),
        sessionId: 'ses_gone_for_good',
        onSessionId: (id) => learned.push(id),
      }),
    );
    tab.start();
    const lost = await until(tab, (state) => state.history === 'not-found');
    expect(lost.sessionId).toBeNull();
    expect(lost.historyError).toBeNull();
    await tab.loadOlder(); // nothing to load: no request, no change
    expect(tab.getState().history).toBe('not-found');

    expect(tab.send(question)).toEqual({ type: 'sent', key: expect.any(String) });
    const done = await until(tab, (state) => state.entries[0]?.status === 'settled');
    expect(done.sessionId).not.toBeNull();
    expect(done.sessionId).not.toBe('ses_gone_for_good');
    expect(learned).toEqual([done.sessionId]);
    // Like any new session: nothing older to offer.
    expect(done.history).toBe('complete');
    expect(done.entries[0]!.run.getState().output?.status).toBe('COMPLETED');
  });

  it('says not-found from a refused start when there is no listing; Send again starts a new session', async () => {
    const server = await kestrel();
    const learned: string[] = [];
    const tab = track(
      createSessionController({
        client: server.client({ fetch: withoutListing }),
        sessionId: 'ses_gone_for_good',
        onSessionId: (id) => learned.push(id),
      }),
    );
    tab.start();
    await until(tab, (state) => state.history === 'unavailable');
    const sent = tab.send(question);
    expect(sent.type).toBe('sent');
    const refused = await until(tab, (state) => state.entries[0]?.status === 'failed-to-send');
    expect(refused.entries[0]!.error).toMatchObject({ kind: 'http', status: 404, code: 'session_not_found' });
    expect(refused.history).toBe('not-found');
    expect(refused.sessionId).toBeNull();
    expect(learned).toEqual([]);

    expect(tab.retry(refused.entries[0]!.key)).toEqual({ type: 'sent', key: refused.entries[0]!.key });
    const done = await until(tab, (state) => state.entries[0]?.status === 'settled');
    expect(statuses(done)).toEqual(['settled']);
    expect(learned).toEqual([done.sessionId]);
    expect(done.sessionId).not.toBe('ses_gone_for_good');
  });
});
