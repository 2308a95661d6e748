import { getScenario } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createSessionController } from './create-session-controller.js';
import { kestrel, recordStatuses, track, until } from './session.test-helper.js';

/* A refresh whose listing page was read before this tab's own progress, and arrives after it. */

const approval = getScenario('waiting-approval');

const isListing = (url: string, method: string) => method === 'GET' && /\/sessions\/[^/]+\/runs(\?|$)/.test(url);

/** A fetch that reads a listing page at once but, once `hold()` is called, hands it over only when released. */
function lateListings() {
  let gate: { opened: Promise<void>; read: (body: string) => void } | null = null;
  const lateFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const held = gate;
    if (held === null || !isListing(url, method)) return response;
    gate = null;
    const body = await response.text();
    held.read(body);
    await held.opened;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: lateFetch,
    /** Holds the next listing page: `read` resolves with its body once read, `release` hands it over. */
    hold() {
      let open!: () => void;
      let read!: (body: string) => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      const body = new Promise<string>((resolve) => (read = resolve));
      gate = { opened, read };
      return { read: body, release: open };
    },
  };
}

describe('createSessionController: a listing that arrives after this tab moved on', () => {
  it('a run listed live that settled here meanwhile stays settled: nothing replays', async () => {
    const server = await kestrel();
    const late = lateListings();
    const tab = track(createSessionController({ client: server.client({ delayMs: 10, fetch: late.fetch }) }));
    tab.send('first');
    await until(tab, (state) => state.entries[0]?.status === 'settled');
    tab.send('second');
    await until(tab, (state) => state.entries[1]?.status === 'live');
    const held = late.hold();
    const refreshed = tab.refresh();
    expect(await held.read).toContain('"live":true');
    const settled = await until(tab, (state) => state.entries[1]?.status === 'settled');
    const runState = settled.entries[1]!.run.getState();
    const seen = recordStatuses(tab);

    held.release();
    expect(await refreshed).toEqual({ type: 'refreshed', added: [], updated: [], gap: false });
    expect(tab.getState().entries[1]?.run.getState()).toBe(runState);
    expect(seen.get(settled.entries[1]!.key)).toEqual(['settled']);
  });

  it('a WAITING run answered here and COMPLETED keeps its outcome when a listing read before the answer arrives', async () => {
    const server = await kestrel();
    const late = lateListings();
    const tab = track(createSessionController({ client: server.client({ fetch: late.fetch }) }));
    tab.send(`[scenario:waiting-approval] ${approval.input}`);
    await until(tab, (state) => state.entries[0]?.status === 'waiting');
    const held = late.hold();
    const refreshed = tab.refresh();
    expect(await held.read).toContain('"status":"WAITING"');
    await tab.getState().entries[0]!.run.respond(approval.continuation!.answer);
    const done = await until(tab, (state) => state.entries[0]?.run.getState().status === 'COMPLETED');
    const runState = done.entries[0]!.run.getState();

    held.release();
    expect(await refreshed).toEqual({ type: 'refreshed', added: [], updated: [], gap: false });
    const entry = tab.getState().entries[0]!;
    expect(entry.run.getState()).toBe(runState);
    expect(entry.status).toBe('settled');
    expect(entry.run.getState()).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(entry.answers).toEqual([expect.objectContaining({ answer: approval.continuation!.answer, attempt: 1 })]);
  });

  it('a WAITING run answered in another tab and still live there is followed here from the listing', async () => {
    const server = await kestrel();
    const tab1 = track(createSessionController({ client: server.client({ delayMs: 30 }) }));
    tab1.send(`[scenario:waiting-approval] ${approval.input}`);
    const waiting = await until(tab1, (state) => state.entries[0]?.status === 'waiting');
    const tab2 = track(createSessionController({ client: server.client(), sessionId: waiting.sessionId! }));
    tab2.start();
    await until(tab2, (state) => state.history === 'complete' && state.entries[0]?.status === 'waiting');
    const key = tab2.getState().entries[0]!.key;

    await tab1.getState().entries[0]!.run.respond(approval.continuation!.answer);
    expect(await tab2.refresh()).toEqual({ type: 'refreshed', added: [], updated: [key], gap: false });
    expect(tab2.getState().entries[0]?.status).toBe('live');
    const done = await until(tab2, (state) => state.entries[0]?.status === 'settled');
    expect(done.entries[0]?.run.getState()).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(done.entries[0]?.answers).toHaveLength(1);
  });
});
