import { getScenario } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createRunClient } from '../client/create-run-client.js';
import { jsonResponse } from '../protocol/error-response.js';
import { createSessionController } from './create-session-controller.js';
import { kestrel, recordStatuses, statuses, texts, track, until } from './session.test-helper.js';

const waitingText = getScenario('waiting-text');
const completedText = getScenario('completed-text');

/** Starts a run in a session from "another tab" and reads it to its end (or leaves it live when `live`). */
async function startElsewhere(baseUrl: string, input: string, sessionId = 'new', delayMs?: number) {
  const client = createRunClient({
    baseUrl,
    headers: delayMs === undefined ? {} : { 'x-kestrel-delay': String(delayMs) },
  });
  const handle = client.start({ sessionId, input });
  return handle;
}

describe('createSessionController: history', () => {
  it('loads the newest page on start, then older pages oldest first, keeping entries that did not change', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_long', runs: 45 }] });
    const pages: [number, string | null][] = [];
    const session = track(
      createSessionController({
        client: server.client(),
        sessionId: 'ses_long',
        onPage: (page, before) => pages.push([page.runs.length, before]),
      }),
    );
    expect(session.getServerState()).toMatchObject({ sessionId: 'ses_long', entries: [], history: 'unknown' });
    session.start();
    session.start(); // idempotent: one request
    expect(session.getState().history).toBe('loading');
    const first = await until(session, (state) => state.history === 'more');
    expect(first.entries).toHaveLength(20);
    expect(first.entries.map((entry) => entry.input.match(/#(\d+)/)?.[1])).toEqual(
      Array.from({ length: 20 }, (_, index) => String(index + 26)),
    );
    expect(statuses(first).every((status) => status === 'settled')).toBe(true);
    expect(texts(first)[0]).toBe(completedText.expected.assistantText);
    expect(first.entries[0]).toMatchObject({ origin: 'history', answers: [] });

    await session.loadOlder();
    const second = session.getState();
    expect(second.entries).toHaveLength(40);
    expect(second.entries[20]).toBe(first.entries[0]); // the newer entries keep their identity
    await session.loadOlder();
    const all = session.getState();
    expect(all.history).toBe('complete');
    expect(all.entries.map((entry) => Number(entry.input.match(/#(\d+)/)?.[1]))).toEqual(
      Array.from({ length: 45 }, (_, index) => index + 1),
    );
    await session.loadOlder(); // complete: nothing more is asked
    expect(server.sent('GET', /\/runs\?/)).toHaveLength(3);
    expect(pages).toEqual([
      [20, null],
      [20, 'before-25'],
      [5, 'before-5'],
    ]);
    // Settled runs are shown from the listing's result: no request per run.
    expect(server.requests.filter((request) => !request.path.includes('/runs?'))).toEqual([]);
  });

  it('survives start, dispose, start (StrictMode): one page shown once, the history status from the last read', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_strict', runs: 30 }] });
    const session = track(createSessionController({ client: server.client(), sessionId: 'ses_strict' }));
    session.start();
    session.dispose();
    session.start();
    const seen: string[] = [];
    session.subscribe(() => {
      if (seen.at(-1) !== session.getState().history) seen.push(session.getState().history);
    });
    const loaded = await until(session, (state) => state.history === 'more');
    await new Promise((resolve) => setTimeout(resolve, 30)); // the aborted read has had its say
    expect(seen).toEqual(['loading', 'more']); // never back to 'unknown' while the second read is out
    expect(loaded.entries).toHaveLength(20);
    expect(new Set(loaded.entries.map((entry) => entry.runId)).size).toBe(20);
  });

  it('re-attaches to a live run it finds in the listing and follows it to its outcome', async () => {
    const server = await kestrel();
    const elsewhere = await startElsewhere(server.baseUrl, 'Tell me about Canberra', 'new', 40);
    await new Promise((resolve) => elsewhere.subscribe(() => elsewhere.getState().sessionId !== null && resolve(null)));
    const sessionId = elsewhere.getState().sessionId ?? '';
    const session = track(createSessionController({ client: server.client(), sessionId }));
    const seen = recordStatuses(session);
    session.start();
    const settled = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(settled.entries[0]).toMatchObject({ input: 'Tell me about Canberra', origin: 'history' });
    expect(texts(settled)).toEqual([completedText.expected.assistantText]);
    expect([...seen.values()][0]).toEqual(['live', 'settled']);
    elsewhere.detach();
  });

  it('keeps a WAITING run from the listing answerable through its entry, and shows the answer on the entry', async () => {
    const server = await kestrel();
    const elsewhere = await startElsewhere(server.baseUrl, `[scenario:waiting-text] ${waitingText.input}`);
    await elsewhere.result;
    const sessionId = elsewhere.getState().sessionId ?? '';
    const session = track(createSessionController({ client: server.client(), sessionId }));
    session.start();
    const waiting = await until(session, (state) => state.entries[0]?.status === 'waiting');
    expect(waiting.activeKey).toBe(waiting.entries[0]?.key);
    const asked = waiting.entries[0]!.run.getState().output;
    expect(asked?.status).toBe('WAITING');
    await waiting.entries[0]?.run.respond({ kind: 'text', text: 'Please fix the heating by Friday.' });
    const done = await until(session, (state) => state.entries[0]?.status === 'settled');
    const given = {
      interactionId: 'int_text',
      attempt: 1,
      answer: { kind: 'text', text: 'Please fix the heating by Friday.' },
    };
    // Answered here, the entry keeps what the run said and asked: its own view has moved on to the next attempt.
    expect(done.entries[0]?.answers).toEqual([
      {
        ...given,
        question: {
          text: asked?.status === 'WAITING' ? asked.assistantText : 'x',
          interaction: asked?.status === 'WAITING' ? asked.interaction : null,
        },
      },
    ]);
    expect(texts(done)).toEqual([waitingText.continuation?.expected.assistantText]);
    // A refresh that lists the answer keeps its question.
    await session.refresh();
    expect(session.getState().entries[0]?.answers).toEqual(done.entries[0]?.answers);

    // A reload shows the same answer, read from the listing (which carries no question).
    const reloaded = track(createSessionController({ client: server.client(), sessionId }));
    reloaded.start();
    const read = await until(reloaded, (state) => state.history === 'complete');
    expect(read.entries[0]?.answers).toEqual([given]);
    expect(read.entries[0]?.status).toBe('settled');
  });

  it("keeps an answer's question when a refresh lists the answer before this page heard back", async () => {
    const server = await kestrel();
    const elsewhere = await startElsewhere(server.baseUrl, `[scenario:waiting-text] ${waitingText.input}`);
    await elsewhere.result;
    const sessionId = elsewhere.getState().sessionId ?? '';
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let posted = () => {};
    const reached = new Promise<void>((resolve) => (posted = resolve));
    // The server has the answer, but its response waits: this page has not heard back yet.
    const slowFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && String(input instanceof Request ? input.url : input).includes('/interactions/')) {
        posted();
        await gate;
      }
      return response;
    };
    const client = createRunClient({ baseUrl: server.baseUrl, fetch: slowFetch });
    const session = track(createSessionController({ client, sessionId }));
    session.start();
    const waiting = await until(session, (state) => state.entries[0]?.status === 'waiting');
    const responding = waiting.entries[0]!.run.respond({ kind: 'text', text: 'Please fix the heating by Friday.' });
    await reached;
    await session.refresh(); // the page came back into view meanwhile
    expect(session.getState().entries[0]?.answers).toHaveLength(1);
    release();
    await responding;
    const [answer] = session.getState().entries[0]?.answers ?? [];
    expect(session.getState().entries[0]?.answers).toHaveLength(1);
    expect(answer?.question?.interaction.id).toBe('int_text');
  });

  it('says history is unavailable on a server without the listing, and still sends and shows local runs', async () => {
    const server = await kestrel({ listing: false });
    const first = await startElsewhere(server.baseUrl, 'hello');
    await first.result;
    const sessionId = first.getState().sessionId ?? '';
    const session = track(createSessionController({ client: server.client(), sessionId }));
    session.start();
    await until(session, (state) => state.history === 'unavailable');
    await session.loadOlder(); // a no-op: nothing more is asked
    expect(session.send('What is the capital of Australia?')).toMatchObject({ type: 'sent' });
    const done = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(done).toMatchObject({ history: 'unavailable', historyError: null });
    expect(done.entries).toHaveLength(1);
    expect(server.sent('GET', /\/runs\?/)).toHaveLength(1);
  });

  it('reports a failed page as history error, and loadOlder tries the same page again', async () => {
    let fail = true;
    const server = await kestrel({
      seed: [{ sessionId: 'ses_s', runs: 2 }],
      intercept: (request) =>
        fail && request.method === 'GET' && request.url.includes('/runs')
          ? jsonResponse(503, { error: { code: 'unavailable', message: 'try later' } })
          : undefined,
    });
    const session = track(createSessionController({ client: server.client(), sessionId: 'ses_s' }));
    session.start();
    const failed = await until(session, (state) => state.history === 'error');
    expect(failed.historyError).toMatchObject({ kind: 'http', status: 503 });
    fail = false;
    await session.loadOlder();
    expect(session.getState()).toMatchObject({ history: 'complete', historyError: null });
    expect(session.getState().entries).toHaveLength(2);
  });

  it('stops with a protocol error when the listing hands out a cursor again, instead of paging for ever', async () => {
    // Older pages that lead back: before-25 gives loop-2, which gives before-25 again.
    const server = await kestrel({
      seed: [{ sessionId: 'ses_loop', runs: 45 }],
      intercept: (request) => {
        const before = new URL(request.url).searchParams.get('before');
        if (before === null) return undefined;
        return jsonResponse(200, { runs: [], nextCursor: before === 'before-25' ? 'loop-2' : 'before-25' });
      },
    });
    const session = track(createSessionController({ client: server.client(), sessionId: 'ses_loop' }));
    session.start();
    await until(session, (state) => state.history === 'more');
    await session.loadOlder(); // before-25 gives loop-2: not seen yet
    expect(session.getState().history).toBe('more');
    await session.loadOlder(); // loop-2 gives before-25 again
    expect(session.getState()).toMatchObject({
      history: 'error',
      historyError: { kind: 'protocol', path: ['nextCursor'], raw: 'before-25' },
    });
    expect(session.getState().historyError?.message).toContain('"before-25" again');
    await session.loadOlder(); // a retry reads the failed page once more, and fails the same way
    expect(session.getState().history).toBe('error');
    expect(
      server.sent('GET', /\/runs\?/).map((request) => new URL(request.path, 'http://x').searchParams.get('before')),
    ).toEqual([null, 'before-25', 'loop-2', 'loop-2']);
  });
});

describe('createSessionController: a new session', () => {
  it('learns its id from the first run.started, tells the app once, and sends the next message into it', async () => {
    const server = await kestrel();
    const heard: string[] = [];
    const session = track(createSessionController({ client: server.client(), onSessionId: (id) => heard.push(id) }));
    session.start();
    expect(session.getState().sessionId).toBeNull();
    expect(session.send('   ')).toEqual({ type: 'rejected', reason: 'empty-input' });
    expect(session.send('first')).toMatchObject({ type: 'sent' });
    const named = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(named.sessionId).toMatch(/^ses_/);
    session.send('second');
    await until(session, (state) => state.entries[1]?.status === 'settled');
    expect(heard).toEqual([named.sessionId]);
    expect(server.sent('POST', /\/runs$/).map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${named.sessionId}/runs`,
    ]);
  });

  it('has no older history to offer: complete from the start, and loadOlder reads no page once it has an id', async () => {
    const server = await kestrel();
    const pages: unknown[] = [];
    const session = track(createSessionController({ client: server.client(), onPage: (page) => pages.push(page) }));
    expect(session.getServerState().history).toBe('complete');
    session.start();
    expect(session.getState().history).toBe('complete');
    session.send('first');
    const named = await until(session, (state) => state.entries[0]?.status === 'settled');
    expect(named.sessionId).toMatch(/^ses_/);
    await session.loadOlder();
    expect(pages).toEqual([]);
    expect(server.sent('GET', /\/runs/)).toEqual([]);
    expect(session.getState()).toMatchObject({ history: 'complete', entries: [{ status: 'settled' }] });
    // A refresh still reads the newest page: another tab may have added to the conversation since.
    await session.refresh();
    expect(pages).toHaveLength(1);
    expect(session.getState().history).toBe('complete');
  });

  it('stays complete on a server without the listing: a refresh does not call its history missing', async () => {
    const server = await kestrel({ listing: false });
    const session = track(createSessionController({ client: server.client(), sessionId: 'new' }));
    session.start();
    session.send('Hello');
    await until(session, (state) => state.entries[0]?.status === 'settled' && state.sessionId !== null);
    await session.refresh(); // useSession does this whenever the tab comes back into view
    expect(session.getState().history).toBe('complete');
  });
});

describe('createSessionController: a new client', () => {
  it('sends the next message and reads the next page through it, and leaves the live run alone', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_client', runs: 25 }] });
    const session = track(createSessionController({ client: server.client({ delayMs: 10 }), sessionId: 'ses_client' }));
    session.start();
    await until(session, (state) => state.history === 'more');
    session.send('first');
    await until(session, (state) => state.entries.at(-1)?.status === 'live');
    const before = server.requests.length;
    session.setClient(server.client({ delayMs: 1 }));
    expect(server.requests.length).toBe(before); // nothing is sent or reloaded because of the change
    session.send('second');
    await session.loadOlder();
    const done = await until(session, (state) => state.entries.at(-1)?.status === 'settled', 6_000);
    expect(done.entries.at(-2)?.run.getState().status).toBe('COMPLETED');
    const delayOf = (input: string) =>
      server.requests.find((request) => request.method === 'POST' && request.body.includes(input))?.headers[
        'x-kestrel-delay'
      ];
    expect([delayOf('first'), delayOf('second')]).toEqual(['10', '1']);
    expect(server.sent('GET', /\/runs\?/).map((request) => request.headers['x-kestrel-delay'])).toEqual(['10', '1']);
  });
});
