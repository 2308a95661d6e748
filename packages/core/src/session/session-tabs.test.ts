import { getScenario } from '@kestrel/testing';
import { describe, expect, it, vi } from 'vitest';
import { RunClientError } from '../client/run-client-error.js';
import { isWaitOver } from '../controller/wait-over.js';
import { listSessionRuns } from '../client/list-session-runs.js';
import type { RunSummary } from '../protocol/types.js';
import { createSessionController } from './create-session-controller.js';
import type { SessionControllerOptions } from './session-types.js';
import { MAX_CATCH_UP_PAGES } from './history-paging.js';
import { kestrel, statuses, texts, track, until } from './session.test-helper.js';

/* Two tabs (two controllers, one client each) on one session of the loopback Kestrel. */

const approval = getScenario('waiting-approval');
const completedText = getScenario('completed-text');

/** Tab 1 starts a session that waits on an approval; tab 2 opens the same session and shows it WAITING. */
async function twoTabsOnAWait() {
  const server = await kestrel();
  const tab1 = track(createSessionController({ client: server.client({ delayMs: 5 }) }));
  tab1.start();
  tab1.send(`[scenario:waiting-approval] ${approval.input}`);
  const waiting = await until(tab1, (state) => state.entries[0]?.status === 'waiting');
  const tab2 = track(createSessionController({ client: server.client({ delayMs: 5 }), sessionId: waiting.sessionId! }));
  tab2.start();
  await until(tab2, (state) => state.history === 'complete' && state.entries[0]?.status === 'waiting');
  return { server, tab1, tab2, sessionId: waiting.sessionId! };
}

/**
 * Tab 1 (pages of 2) sends `first`; tab 2 then opens the session and sends `inputs` one after another, which tab 1
 * has not read yet: more than a page of runs it does not show.
 */
async function otherTabAddsPages(
  server: Awaited<ReturnType<typeof kestrel>>,
  inputs: readonly string[],
  options: Partial<SessionControllerOptions> = {},
) {
  const tab1 = track(createSessionController({ client: server.client(), pageSize: 2, ...options }));
  tab1.send('first');
  const first = await until(tab1, (state) => state.entries[0]?.status === 'settled');
  const tab2 = track(createSessionController({ client: server.client(), sessionId: first.sessionId! }));
  tab2.start();
  await until(tab2, (state) => state.history === 'complete');
  for (const input of inputs) tab2.send(input);
  await until(
    tab2,
    (state) => state.entries.length === inputs.length + 1 && statuses(state).every((s) => s === 'settled'),
  );
  return tab1;
}

describe('createSessionController: a session open in two tabs', () => {
  it('an answer refused because the other tab answered first: the entry shows what the run became, and the queued message goes', async () => {
    const { tab1, tab2 } = await twoTabsOnAWait();
    await tab1.getState().entries[0]!.run.respond(approval.continuation!.answer);
    expect(tab2.send('[scenario:completed-text] hi')).toMatchObject({ type: 'queued' });

    const refusal = await tab2
      .getState()
      .entries[0]!.run.respond(approval.continuation!.answer)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal).toBeInstanceOf(RunClientError);
    expect(refusal).toMatchObject({ kind: 'http', status: 409, code: 'interaction_answered' });
    expect(isWaitOver(refusal)).toBe(true);

    const done = await until(tab2, (state) => statuses(state).join() === 'settled,settled');
    expect(done.entries[0]?.run.getState().status).toBe('COMPLETED');
    expect(texts(done)).toEqual([approval.continuation!.expected.assistantText, completedText.expected.assistantText]);
    // The answer given in the other tab, read from the listing, once.
    expect(done.entries[0]?.answers).toEqual([
      expect.objectContaining({ answer: approval.continuation!.answer, attempt: 1 }),
    ]);
    expect(done.activeKey).toBeNull();
    // The answer this tab gave is kept as not taken, so the thread can say it was not sent instead of losing it.
    expect(done.entries[0]?.answerNotTaken).toMatchObject({
      reason: 'answered-elsewhere',
      answer: approval.continuation!.answer,
      question: { interaction: { kind: 'approval' } },
    });
    expect(tab1.getState().entries[0]?.answerNotTaken).toBeNull();
  });

  it('an answer refused for a reason that says nothing about the wait (run_in_progress) leaves the entry WAITING, to answer again', async () => {
    let refusing = true;
    const server = await kestrel({
      intercept: (request) =>
        refusing && request.method === 'POST' && /\/interactions\//.test(new URL(request.url).pathname)
          ? Response.json({ error: { code: 'run_in_progress', message: 'busy' } }, { status: 409 })
          : undefined,
    });
    const tab = track(createSessionController({ client: server.client() }));
    tab.send(`[scenario:waiting-approval] ${approval.input}`);
    const waiting = await until(tab, (state) => state.entries[0]?.status === 'waiting');
    const runState = waiting.entries[0]!.run.getState();
    const listed = server.sent('GET', /\/sessions\/[^/]+\/runs/).length;

    const refusal = await waiting.entries[0]!.run.respond(approval.continuation!.answer).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ kind: 'http', status: 409, code: 'run_in_progress' });
    expect(isWaitOver(refusal)).toBe(false);
    expect(tab.getState().entries[0]?.run.getState()).toBe(runState); // not read again
    expect(tab.getState().entries[0]?.answers).toEqual([]);
    expect(tab.getState().entries[0]?.answerNotTaken).toBeNull(); // a refusal to correct, not a wait that is over

    refusing = false;
    await tab.getState().entries[0]!.run.respond(approval.continuation!.answer);
    const done = await until(tab, (state) => state.entries[0]?.status === 'settled');
    expect(done.entries[0]?.run.getState().status).toBe('COMPLETED');
    expect(server.sent('GET', /\/sessions\/[^/]+\/runs/)).toHaveLength(listed); // no catch-up was read
  });

  it('refresh() brings a WAITING run answered in the other tab up to date, and the queued message goes', async () => {
    const { tab1, tab2 } = await twoTabsOnAWait();
    await tab1.getState().entries[0]!.run.respond(approval.continuation!.answer);
    await until(tab1, (state) => state.entries[0]?.status === 'settled');
    tab2.send('[scenario:completed-text] and then?');
    const key = tab2.getState().entries[0]!.key;

    expect(await tab2.refresh()).toEqual({ type: 'refreshed', added: [], updated: [key], gap: false });
    const done = await until(tab2, (state) => statuses(state).join() === 'settled,settled');
    expect(done.entries[0]?.key).toBe(key); // the same entry, brought up to date
    expect(done.entries[0]?.answers).toHaveLength(1);
    expect(texts(done)[0]).toBe(approval.continuation!.expected.assistantText);
  });

  it('refresh() adds a run started in the other tab and follows it while live, never twice', async () => {
    const server = await kestrel();
    const tab1 = track(createSessionController({ client: server.client({ delayMs: 20 }) }));
    tab1.send('first');
    const first = await until(tab1, (state) => state.entries[0]?.status === 'settled');
    const tab2 = track(createSessionController({ client: server.client(), sessionId: first.sessionId! }));
    tab2.start();
    await until(tab2, (state) => state.history === 'complete');

    tab1.send('second, from tab 1');
    await until(tab1, (state) => state.entries[1]?.status === 'live');
    const [result, again] = await Promise.all([tab2.refresh(), tab2.refresh()]);
    expect(result).toBe(again); // one read at a time
    expect(result).toMatchObject({ type: 'refreshed', added: [expect.any(String)], updated: [] });
    expect(server.sent('GET', /\/sessions\/[^/]+\/runs/)).toHaveLength(2); // tab 2's first page and one refresh
    expect(tab2.getState().entries.map((entry) => entry.input)).toEqual(['first', 'second, from tab 1']);
    expect(tab2.getState().entries[1]?.status).toBe('live');
    expect(tab2.send('third, from tab 2')).toMatchObject({ type: 'queued' });

    const done = await until(tab2, (state) => statuses(state).join() === 'settled,settled,settled');
    expect(done.entries.map((entry) => entry.input)).toEqual(['first', 'second, from tab 1', 'third, from tab 2']);
    await tab2.refresh();
    expect(tab2.getState().entries.map((entry) => entry.input)).toEqual([
      'first',
      'second, from tab 1',
      'third, from tab 2',
    ]);
  });

  it('refresh() after the other tab added more than a page reads back to the runs it shows: none missing, in order', async () => {
    const pages: (string | null)[] = [];
    const tab1 = await otherTabAddsPages(await kestrel(), ['second', 'third', 'fourth', 'fifth'], {
      onPage: (_page, before) => pages.push(before),
    });

    const result = await tab1.refresh();
    const state = tab1.getState();
    expect(state.entries.map((entry) => entry.input)).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
    expect(result).toMatchObject({
      type: 'refreshed',
      added: Array(4).fill(expect.any(String)),
      updated: [],
      gap: false,
    });
    // The newest page (fourth, fifth) and the one before it (second, third) hold no run shown here; the third does.
    expect(pages).toEqual([null, expect.any(String), expect.any(String)]);
    expect(texts(state).every((text) => text !== null && text !== '')).toBe(true);
    expect(state.history).toBe('complete');

    // Caught up: the next refresh reads the newest page alone.
    await tab1.refresh();
    expect(pages).toHaveLength(4);
    expect(tab1.getState().entries.map((entry) => entry.input)).toEqual(state.entries.map((entry) => entry.input));
  });

  it('refresh() reads back past the run this tab sent meanwhile, which the newest page shows', async () => {
    const tab1 = await otherTabAddsPages(await kestrel(), ['second', 'third', 'fourth', 'fifth']);
    tab1.send('sixth');
    await until(tab1, (state) => statuses(state).join() === 'settled,settled');

    await tab1.refresh();
    const state = tab1.getState();
    expect(state.entries.map((entry) => entry.input)).toEqual(['first', 'second', 'third', 'fourth', 'fifth', 'sixth']);
    expect(state.history).toBe('complete');
  });

  it("refresh() reads back past this tab's own run when the other tab added a run before it and one after", async () => {
    const server = await kestrel();
    const tab1 = track(createSessionController({ client: server.client(), pageSize: 2 }));
    tab1.send('first');
    const first = await until(tab1, (state) => state.entries[0]?.status === 'settled');
    const tab2 = track(createSessionController({ client: server.client(), sessionId: first.sessionId! }));
    tab2.start();
    await until(tab2, (state) => state.history === 'complete');
    const settledCount = (count: number) => (state: ReturnType<typeof tab1.getState>) =>
      state.entries.length === count && statuses(state).every((status) => status === 'settled');
    tab2.send('other, before');
    await until(tab2, settledCount(2));
    tab1.send('mine');
    await until(tab1, settledCount(2));
    tab2.send('other, after');
    await until(tab2, settledCount(3));

    // The newest page is mine and "other, after": mine is shown here, yet "other, before" sits below it, unread.
    const result = await tab1.refresh();
    expect(tab1.getState().entries.map((entry) => entry.input)).toEqual([
      'first',
      'other, before',
      'mine',
      'other, after',
    ]);
    expect(result).toMatchObject({ type: 'refreshed', gap: false });
  });

  it('refresh() whose catch-up page fails merges nothing, and the next one reads back again', async () => {
    let failOlder = false;
    const server = await kestrel({
      intercept: (request) => {
        const url = new URL(request.url);
        return failOlder &&
          request.method === 'GET' &&
          /\/sessions\/[^/]+\/runs/.test(url.pathname) &&
          url.searchParams.has('before')
          ? Response.json({ error: { code: 'unavailable', message: 'try later' } }, { status: 503 })
          : undefined;
      },
    });
    const tab1 = await otherTabAddsPages(server, ['second', 'third', 'fourth']);

    failOlder = true;
    const before = tab1.getState().entries;
    expect(await tab1.refresh()).toMatchObject({ type: 'failed', error: { kind: 'http', status: 503 } });
    // Merging the newest page alone would leave second out for good: its oldest run would then be shown.
    expect(tab1.getState().entries).toEqual(before);
    failOlder = false;
    expect(await tab1.refresh()).toMatchObject({ type: 'refreshed', added: Array(3).fill(expect.any(String)) });
    expect(tab1.getState().entries.map((entry) => entry.input)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('refresh() reads back at most MAX_CATCH_UP_PAGES pages of a listing whose cursors never reach the thread', async () => {
    const endless: { page?: () => Response } = {};
    const server = await kestrel({
      intercept: (request) =>
        request.method === 'GET' && /\/sessions\/[^/]+\/runs/.test(new URL(request.url).pathname)
          ? endless.page?.()
          : undefined,
    });
    const tab = track(createSessionController({ client: server.client(), pageSize: 1 }));
    tab.send('first');
    const { sessionId, entries } = await until(tab, (state) => state.entries[0]?.status === 'settled');
    const listed = (await listSessionRuns(server.client(), { sessionId: sessionId! })).runs[0]!;
    const shownRunId = entries[0]!.runId!;
    let made = 0;
    endless.page = () => {
      made += 1;
      // The run this tab shows, renamed: a valid summary of a run it has never seen, on every page.
      const other = JSON.parse(JSON.stringify(listed).replaceAll(shownRunId, `run_elsewhere_${made}`)) as RunSummary;
      return Response.json({ runs: [other], nextCursor: `before-endless-${made}` });
    };

    const result = await tab.refresh();
    expect(made).toBe(MAX_CATCH_UP_PAGES);
    // What it did not read is said: the app can offer to load the conversation again.
    expect(result).toMatchObject({ type: 'refreshed', updated: [], gap: true });
    expect(result.type === 'refreshed' && result.added).toHaveLength(MAX_CATCH_UP_PAGES);
    expect(tab.getState().entries[0]?.input).toBe('first');
    expect(tab.getState().entries).toHaveLength(MAX_CATCH_UP_PAGES + 1);
  });

  it('refresh() while this tab sends: a run listed before its run.started reached this tab shows once', async () => {
    const server = await kestrel();
    const tab = track(createSessionController({ client: server.client() }));
    tab.send('first');
    await until(tab, (state) => state.entries[0]?.status === 'settled');
    // Slow events: the server lists the run well before its first event (which names it here) arrives.
    tab.setClient(server.client({ delayMs: 150 }));
    tab.send('second');
    await vi.waitFor(() => expect(server.sent('POST', /\/runs$/)).toHaveLength(2), { interval: 2 });
    const result = await tab.refresh();
    expect(tab.getState().entries.at(-1)?.runId).toBeNull(); // the message sent here: still unnamed
    expect(result).toMatchObject({ type: 'refreshed', added: [expect.any(String)] });
    const done = await until(tab, (state) => statuses(state).join() === 'settled,settled', 6_000);
    expect(done.entries.map((entry) => entry.input)).toEqual(['first', 'second']);
    expect(done.entries[1]?.origin).toBe('local');
  });

  it('refresh() that cannot read the listing says why and leaves the thread as it was', async () => {
    let failing = false;
    const server = await kestrel({
      intercept: (request) =>
        failing && request.method === 'GET' && /\/sessions\/[^/]+\/runs/.test(new URL(request.url).pathname)
          ? Response.json({ error: { code: 'unavailable', message: 'try later' } }, { status: 503 })
          : undefined,
    });
    const tab1 = track(createSessionController({ client: server.client() }));
    tab1.send('first');
    const { sessionId } = await until(tab1, (state) => state.entries[0]?.status === 'settled');
    const tab = track(createSessionController({ client: server.client(), sessionId: sessionId! }));
    tab.start();
    const before = await until(tab, (state) => state.history === 'complete' && state.entries[0]?.status === 'settled');
    failing = true;
    const result = await tab.refresh();
    expect(result).toMatchObject({ type: 'failed', error: { kind: 'http', status: 503, code: 'unavailable' } });
    expect(tab.getState().entries).toEqual(before.entries);
    expect(tab.getState().history).toBe(before.history);
  });

  it('refresh() reads nothing for a new session before its first run, nor after dispose', async () => {
    const server = await kestrel();
    const tab = createSessionController({ client: server.client() });
    expect(await tab.refresh()).toEqual({ type: 'skipped', reason: 'no-session' });
    tab.send('first');
    await until(tab, (state) => state.entries[0]?.status === 'settled');
    tab.dispose();
    expect(await tab.refresh()).toEqual({ type: 'skipped', reason: 'disposed' });
    expect(server.sent('GET', /\/sessions\/[^/]+\/runs/)).toHaveLength(0);
  });

  it('refresh() on a server without a listing is skipped as unavailable', async () => {
    const server = await kestrel({ listing: false });
    const tab = track(createSessionController({ client: server.client() }));
    tab.send('first');
    await until(tab, (state) => state.entries[0]?.status === 'settled');
    expect(await tab.refresh()).toEqual({ type: 'skipped', reason: 'unavailable' });
    expect(statuses(tab.getState())).toEqual(['settled']);
    const asked = server.sent('GET', /\/sessions\/[^/]+\/runs/).length;
    expect(await tab.refresh()).toEqual({ type: 'skipped', reason: 'unavailable' });
    expect(server.sent('GET', /\/sessions\/[^/]+\/runs/)).toHaveLength(asked); // known by now: not asked again
  });
});
