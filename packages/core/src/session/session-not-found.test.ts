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

  it('a session that expires while shown: its runs leave the thread, the refused message stays, Send again starts anew', async () => {
    const server = await kestrel();
    let gone = false;
    let expired: string | null = null;
    // Once gone, the server answers 404 session_not_found for that session; a new one still works.
    const fetchUntilGone: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (gone && expired !== null && request.url.includes(`/v1/sessions/${expired}/`))
        return Response.json({ error: { code: 'session_not_found', message: 'gone' } }, { status: 404 });
      return fetch(request);
    };
    const learned: string[] = [];
    const tab = track(
      createSessionController({
        client: server.client({ fetch: fetchUntilGone }),
        onSessionId: (id) => learned.push(id),
      }),
    );
    tab.send(question);
    const first = await until(tab, (state) => state.entries[0]?.status === 'settled');
    expired = first.sessionId;
    gone = true;

    tab.send('And a follow-up?');
    const lost = await until(tab, (state) => state.history === 'not-found');
    // The expired session's run is gone from the thread; the message it refused stays, to send again.
    expect(lost.entries.map((entry) => [entry.input, entry.status])).toEqual([['And a follow-up?', 'failed-to-send']]);
    expect(lost.sessionId).toBeNull();

    expect(tab.retry(lost.entries[0]!.key).type).toBe('sent');
    const done = await until(tab, (state) => state.entries[0]?.status === 'settled');
    expect(done.sessionId).not.toBe(expired);
    expect(learned).toEqual([expired, done.sessionId]);
    expect(done.history).toBe('complete');
    expect(done.entries).toHaveLength(1);
  });

  it.each([
    ['fails', 500],
    ['succeeds', 200],
  ])(
    'keeps not-found when a first page still on its way (it %s later) was of the session found unknown',
    async (_what, listingStatus) => {
      const server = await kestrel();
      let releaseListing!: () => void;
      const listingHeld = new Promise<void>((resolve) => (releaseListing = resolve));
      const slowListing: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'GET' && request.url.includes('/v1/sessions/ses_unknown/runs')) {
          await listingHeld;
          return listingStatus === 200
            ? Response.json({ runs: [], nextCursor: null })
            : Response.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 });
        }
        if (request.method === 'POST' && request.url.includes('/v1/sessions/ses_unknown/runs'))
          return Response.json({ error: { code: 'session_not_found', message: 'no such session' } }, { status: 404 });
        return fetch(request);
      };
      const tab = track(
        createSessionController({ client: server.client({ fetch: slowListing }), sessionId: 'ses_unknown' }),
      );
      tab.start();
      await until(tab, (state) => state.history === 'loading');
      tab.send(question);
      await until(tab, (state) => state.history === 'not-found');
      releaseListing();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tab.getState().history).toBe('not-found');
      expect(tab.getState().historyError).toBeNull();
      expect(tab.getState().sessionId).toBeNull();
    },
  );
});
