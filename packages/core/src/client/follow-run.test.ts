import { getScenario, stepsToSSE } from '@kestrel/testing';
import { getEventListeners } from 'node:events';
import { listenOnLoopback } from '../../../server/src/listen-loopback.js';
import { createRunClient } from './create-run-client.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunState } from '../run/run-state.js';
import { RunClientError } from './run-client-error.js';
import {
  project,
  referenceState,
  startLoopbackKestrel,
  testClient,
  type LoopbackKestrel,
} from './loopback-kestrel.test-helper.js';
import type { RunHandle } from './types.js';

let kestrel: LoopbackKestrel;
beforeEach(async () => {
  kestrel = await startLoopbackKestrel({ stallMs: 5_000 });
});
afterEach(() => kestrel.close());

/** Every state a subscriber was told about. */
function record(handle: RunHandle): RunState[] {
  const seen: RunState[] = [];
  handle.subscribe(() => seen.push(handle.getState()));
  return seen;
}

/** A server on 127.0.0.1 that sends `body`, then a keep-alive every 10 ms until the client closes the connection. */
async function serveThenKeepAlive(body: string) {
  const seen = { closed: false };
  const server = await listenOnLoopback((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(body);
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 10);
    request.on('close', () => {
      clearInterval(keepAlive);
      seen.closed = true;
    });
  });
  return { url: server.url, seen, close: server.close };
}

const eventsRequests = () =>
  kestrel.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/events'));

describe('resume after a dropped or silent connection', () => {
  it('resumes a dropped stream with Last-Event-ID and ends as an unbroken stream would', async () => {
    const scenario = getScenario('dropped-mid-stream');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const seen = record(handle);
    const event = await handle.result;
    const state = handle.getState();
    expect(event.output.status).toBe('COMPLETED');
    expect(seen.map((entry) => entry.phase)).toContain('reconnecting');
    expect(seen.find((entry) => entry.phase === 'reconnecting')?.reconnect).toMatchObject({
      attempt: 1,
      reason: expect.stringContaining('connection dropped'),
    });
    const resumes = eventsRequests();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.path).toBe(`/v1/runs/${state.runId}/events`);
    const dropSeq = Number(resumes[0]?.headers['last-event-id']);
    expect(dropSeq).toBeGreaterThan(4);
    expect(state.draftText).toBe(scenario.expected.draftText);
    expect(project(state)).toEqual(project(referenceState(scenario)));
  });

  it('drops events the server replays after a resume, by seq', async () => {
    const scenario = getScenario('duplicate-after-resume');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    await handle.result;
    const state = handle.getState();
    const seqs = state.events.toArray().map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(state.draftText).toBe(scenario.expected.draftText);
    expect(project(state)).toEqual(project(referenceState(scenario)));
  });

  it('treats heartbeat silence as a lost connection and resumes', async () => {
    const scenario = getScenario('stalled-heartbeat');
    const handle = testClient(kestrel, { scenario: scenario.name, heartbeatTimeoutMs: 150 }).start({
      input: scenario.input,
    });
    const seen = record(handle);
    const started = Date.now();
    await handle.result;
    expect(Date.now() - started).toBeLessThan(3_000); // the server stalls for 5 s: only the heartbeat gets us out
    expect(seen.find((entry) => entry.phase === 'reconnecting')?.reconnect?.reason).toContain('heartbeat');
    expect(project(handle.getState())).toEqual(project(referenceState(scenario)));
  });

  it('counts keep-alive comments as signs of life: a slow but alive stream is never resumed', async () => {
    // Events 300 ms apart, keep-alives every 25 ms, heartbeat 200 ms: only the comments keep it under the timeout.
    const scenario = getScenario('failed-no-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 300, heartbeatTimeoutMs: 200 }).start({
      input: scenario.input,
    });
    const seen = record(handle);
    await handle.result;
    expect(seen.some((entry) => entry.phase === 'reconnecting')).toBe(false);
    expect(eventsRequests()).toHaveLength(0);
  });

  it('resumes after a drop injected at a chosen seq, without duplicate text', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, fault: () => 'drop-at:7' }).start({
      input: scenario.input,
    });
    await handle.result;
    expect(eventsRequests()[0]?.headers['last-event-id']).toBe('7');
    expect(handle.getState().draftText).toBe(scenario.expected.draftText);
    expect(project(handle.getState()).events).toEqual(project(referenceState(scenario)).events);
  });

  it('retries a reconnect answered 5xx, but not one answered 4xx', async () => {
    const scenario = getScenario('completed-text');
    const sequence = (...faults: (string | undefined)[]) => {
      let call = 0;
      return () => faults[call++];
    };
    const retried = testClient(kestrel, { scenario: scenario.name, fault: sequence('drop-at:6', 'http-503') }).start({
      input: scenario.input,
    });
    const seen = record(retried);
    expect((await retried.result).output.status).toBe('COMPLETED');
    expect(seen.filter((entry) => entry.phase === 'reconnecting').map((entry) => entry.reconnect?.attempt)).toEqual([
      1, 2,
    ]);
    expect(retried.getState().draftText).toBe(scenario.expected.draftText);

    const refused = testClient(kestrel, { scenario: scenario.name, fault: sequence('drop-at:6', 'http-403') }).start({
      input: scenario.input,
    });
    const error = (await refused.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error).toMatchObject({ kind: 'http', status: 403 });
  });

  it('does not let a server that never closes hold the connection after run.completed', async () => {
    const server = await serveThenKeepAlive(stepsToSSE(getScenario('failed-no-text').steps));
    try {
      const client = createRunClient({ baseUrl: server.url, heartbeatTimeoutMs: 100 });
      const handle = client.start({ input: 'x' });
      expect((await handle.result).output.status).toBe('FAILED');
      await expect.poll(() => server.seen.closed, { timeout: 1_000 }).toBe(true);
      expect(handle.getState().phase).toBe('settled');
    } finally {
      await server.close();
    }
  });

  it('gives up with a transport error once the reconnects are spent', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 20 }).start({ input: scenario.input });
    const seen = record(handle);
    await expect.poll(() => handle.getState().draftText.length).toBeGreaterThan(0);
    await kestrel.close(); // the server goes away for good: every reconnect is refused
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error).toBeInstanceOf(RunClientError);
    expect(error.kind).toBe('transport');
    expect(error.message).toContain('gave up after 3 reconnects');
    const attempts = seen.filter((entry) => entry.phase === 'reconnecting').map((entry) => entry.reconnect?.attempt);
    expect(attempts).toEqual([1, 2, 3]);
    expect(handle.getState()).toMatchObject({ phase: 'error', status: null, result: null });
    expect(handle.getState().draftText).not.toBe(''); // the text that had streamed is kept, but it is not an outcome
  });

  it('reports a stream that ends cleanly without run.completed as truncated, never as a result', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, fault: () => 'truncate-at:8' }).start({
      input: scenario.input,
    });
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error.kind).toBe('truncated');
    expect(handle.getState()).toMatchObject({
      phase: 'error',
      lastSeq: 8,
      output: null,
      error: { kind: 'truncated', lastSeq: 8 },
    });
    expect(eventsRequests()).toHaveLength(0); // a clean end is not a drop: nothing to resume
  });

  it('stops reading at a malformed event and names its seq', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, fault: () => 'malformed-at:6' }).start({
      input: scenario.input,
    });
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('seq 6');
    expect(handle.getState()).toMatchObject({
      phase: 'error',
      lastSeq: 5,
      error: { kind: 'protocol', seq: 6, path: ['data'] },
    });
    await expect.poll(() => kestrel.openStreams).toBe(0); // it stopped reading: the connection is closed
  });

  it('closes a stream that stays open after a malformed event, rather than reading on', async () => {
    const valid = stepsToSSE(getScenario('completed-text').steps.slice(0, 2));
    // The malformed event and a valid-looking one after it arrive in one chunk; then keep-alives, forever.
    const server = await serveThenKeepAlive(
      `${valid}event: text.delta\nid: 3\ndata: {"type":\n\nevent: agent.idle\nid: 4\ndata: {}\n\n`,
    );
    try {
      const handle = createRunClient({ baseUrl: server.url }).start({ input: 'x' });
      const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
      expect(error).toMatchObject({ kind: 'protocol' });
      expect(handle.getState()).toMatchObject({ phase: 'error', lastSeq: 2, error: { kind: 'protocol', seq: 3 } });
      await expect.poll(() => server.seen.closed, { timeout: 1_000 }).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('reload: client.resume by run id', () => {
  it('re-attaches to a streaming run from scratch and reads it whole', async () => {
    const scenario = getScenario('tool-error');
    const first = testClient(kestrel, { scenario: scenario.name, delayMs: 15 }).start({ input: scenario.input });
    await expect.poll(() => first.getState().lastSeq).toBeGreaterThan(5);
    const runId = first.getState().runId!;
    first.detach(); // the page goes away

    const reloaded = testClient(kestrel).resume({ runId });
    expect(reloaded.getState()).toMatchObject({ phase: 'connecting', runId });
    const event = await reloaded.result;
    expect(event.runId).toBe(runId);
    expect(project(reloaded.getState())).toEqual(project(referenceState(scenario)));
    const replay = eventsRequests().at(-1);
    expect(replay?.headers['last-event-id']).toBeUndefined();
  });

  it('detach then resume with lastSeq continues where the detached handle stopped', async () => {
    const scenario = getScenario('completed-text');
    const client = testClient(kestrel, { scenario: scenario.name, delayMs: 15 });
    const handle = client.start({ input: scenario.input });
    await expect.poll(() => handle.getState().lastSeq).toBeGreaterThan(6);
    expect(kestrel.openStreams).toBe(1);
    handle.detach();
    const detached = handle.getState();
    expect(detached.phase).toBe('detached');
    await expect.poll(() => kestrel.openStreams).toBe(0); // the fetch was aborted
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error).toBeInstanceOf(RunClientError);
    expect(error.kind).toBe('detached');
    expect(error.detail).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(handle.getState()).toBe(detached); // no longer listening
    expect(kestrel.requests.some((request) => request.path.endsWith('/cancel'))).toBe(false); // detaching never cancels

    const resumed = client.resume({ runId: detached.runId!, lastSeq: detached.lastSeq });
    await resumed.result;
    const rest = resumed.getState();
    expect(eventsRequests().at(-1)?.headers['last-event-id']).toBe(String(detached.lastSeq));
    expect(rest.events.at(0)?.seq).toBe(detached.lastSeq + 1);
    expect(detached.draftText + rest.draftText).toBe(scenario.expected.draftText);
  });

  it('a settled run replays its attempt from the events: the state after a reload is the state before it', async () => {
    for (const name of ['tool-error', 'max-tokens', 'waiting-approval', 'completed-payload']) {
      const scenario = getScenario(name);
      const first = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
      const event = await first.result;
      const sent = kestrel.requests.length;
      const reloaded = testClient(kestrel).resume({ runId: event.runId });
      expect(await reloaded.result, name).toEqual(event);
      // Text, tools, activity and finishReason included; a WAITING run keeps its activity panel.
      expect(project(reloaded.getState()), name).toEqual(project(first.getState()));
      expect(reloaded.getState().finishReason, name).toBe(scenario.expected.finishReason);
      // No /result probe: a reload never logs a 404/409 for a run that has events.
      expect(
        kestrel.requests.slice(sent).map((request) => request.path),
        name,
      ).toEqual([`/v1/runs/${event.runId}/events`]);
    }
  });

  it('a reload of a live run streams its events without probing /result first', async () => {
    const scenario = getScenario('completed-text');
    const first = testClient(kestrel, { scenario: scenario.name, delayMs: 15 }).start({ input: scenario.input });
    await expect.poll(() => first.getState().lastSeq).toBeGreaterThan(3);
    first.detach();
    const sent = kestrel.requests.length;
    const reloaded = testClient(kestrel).resume({ runId: first.getState().runId! });
    await reloaded.result;
    expect(kestrel.requests.slice(sent).some((request) => request.path.endsWith('/result'))).toBe(false);
    expect(project(reloaded.getState())).toEqual(project(referenceState(scenario)));
  });

  it('a resume whose lastSeq is already the outcome settles from the result, with finishReason unknown', async () => {
    const scenario = getScenario('completed-payload');
    const first = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const event = await first.result;
    const reloaded = testClient(kestrel).resume({ runId: event.runId, lastSeq: event.seq });
    expect(await reloaded.result).toEqual(event);
    expect(reloaded.getState()).toMatchObject({
      phase: 'settled',
      status: 'COMPLETED',
      payload: { status: 'valid' },
      finishReason: undefined,
    });
    expect(kestrel.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/runs/${event.runId}/result` });
  });

  it('falls back to the result when the server no longer has the events, and leaves finishReason unknown', async () => {
    const gone = (request: Request) =>
      new URL(request.url).pathname.endsWith('/events')
        ? Response.json(
            { error: { code: 'events_expired', message: 'The events of this run are gone' } },
            { status: 410 },
          )
        : undefined;
    const server = await startLoopbackKestrel({ intercept: gone });
    try {
      const scenario = getScenario('max-tokens');
      const event = await testClient(server, { scenario: scenario.name }).start({ input: scenario.input }).result;
      const reloaded = testClient(server).resume({ runId: event.runId });
      expect(await reloaded.result).toEqual(event);
      // The result alone cannot say which turn ended last: unknown, never "none" (null).
      expect(reloaded.getState()).toMatchObject({
        phase: 'settled',
        status: 'COMPLETED',
        finishReason: undefined,
        draftText: '',
      });
      expect(server.requests.slice(-2).map((request) => request.path)).toEqual([
        `/v1/runs/${event.runId}/events`,
        `/v1/runs/${event.runId}/result`,
      ]);
    } finally {
      await server.close();
    }
  });

  it('a stream that ends without an outcome on a resume is still truncated when the run has not settled', async () => {
    const scenario = getScenario('truncated');
    const first = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    await first.result.catch(() => undefined);
    const runId = first.getState().runId!;
    const reloaded = testClient(kestrel).resume({ runId });
    const error = (await reloaded.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error.kind).toBe('truncated');
    expect(reloaded.getState()).toMatchObject({ phase: 'error', finishReason: undefined, output: null });
  });

  it('fails with an HTTP error for a run the server does not know', async () => {
    const handle = testClient(kestrel).resume({ runId: 'run_missing' });
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    expect(error.kind).toBe('http');
    expect(error.status).toBe(404);
    expect(error.code).not.toBeNull();
  });
});

describe('cancel versus detach', () => {
  it('cancel() asks the server to cancel and keeps listening until the run settles CANCELLED', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 20 }).start({ input: scenario.input });
    const seen = record(handle);
    await expect.poll(() => handle.getState().draftText).not.toBe('');
    await handle.cancel();
    const event = await handle.result;
    expect(event.output.status).toBe('CANCELLED');
    expect(handle.getState()).toMatchObject({ phase: 'settled', status: 'CANCELLED' });
    expect(seen.some((entry) => entry.phase === 'detached')).toBe(false);
    expect(kestrel.requests.filter((request) => request.path === `/v1/runs/${event.runId}/cancel`)).toHaveLength(1);
  });

  it('cancel() right after start waits for the run id, then cancels', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 20 }).start({ input: scenario.input });
    const cancelled = handle.cancel();
    expect(handle.cancel()).toBe(cancelled); // one request, however often it is pressed
    await cancelled;
    expect((await handle.result).output.status).toBe('CANCELLED');
    expect(kestrel.requests.filter((request) => request.path.endsWith('/cancel'))).toHaveLength(1);
  });

  it('a refused cancel rejects with an HTTP error, keeps the run going, and can be tried again', async () => {
    let fault: string | undefined;
    const handle = testClient(kestrel, { scenario: 'completed-text', delayMs: 20, fault: () => fault }).start({
      input: 'x',
    });
    await expect.poll(() => handle.getState().runId).not.toBeNull();
    fault = 'http-403';
    await expect(handle.cancel()).rejects.toMatchObject({ kind: 'http', status: 403 });
    fault = undefined;
    expect(handle.getState().phase).toBe('streaming');
    await handle.cancel();
    expect((await handle.result).output.status).toBe('CANCELLED');
  });

  it('a cancel that loses the race with the run settling (409) resolves; the stream still reports the outcome', async () => {
    let fault: string | undefined;
    const handle = testClient(kestrel, { scenario: 'completed-text', delayMs: 20, fault: () => fault }).start({
      input: 'x',
    });
    await expect.poll(() => handle.getState().runId).not.toBeNull();
    fault = 'http-409';
    await expect(handle.cancel()).resolves.toBeUndefined();
    fault = undefined;
    expect((await handle.result).output.status).toBe('COMPLETED');
  });

  it('cancel() of a settled attempt sends nothing', async () => {
    const handle = testClient(kestrel, { scenario: 'failed-no-text' }).start({ input: 'x' });
    await handle.result;
    await handle.cancel();
    expect(kestrel.requests.some((request) => request.path.endsWith('/cancel'))).toBe(false);
  });

  it('detaches when the start signal aborts', async () => {
    const controller = new AbortController();
    const handle = testClient(kestrel, { scenario: 'completed-text', delayMs: 20 }).start({
      input: 'x',
      signal: controller.signal,
    });
    await expect.poll(() => handle.getState().phase).toBe('streaming');
    controller.abort();
    expect(handle.getState().phase).toBe('detached');
    await expect(handle.result).rejects.toMatchObject({ kind: 'detached' });

    const sent = kestrel.requests.length;
    const never = testClient(kestrel, { scenario: 'completed-text' }).start({
      input: 'x',
      signal: AbortSignal.abort(),
    });
    expect(never.getState().phase).toBe('detached');
    await expect(never.result).rejects.toMatchObject({ kind: 'detached' });
    expect(kestrel.requests).toHaveLength(sent); // an already aborted start sends nothing
  });

  it('lets go of a start signal shared by many runs once each one ends, so a page-wide signal keeps none of them', async () => {
    const page = new AbortController();
    const client = testClient(kestrel, { scenario: 'completed-text' });
    const live = testClient(kestrel, { scenario: 'completed-text', delayMs: 50 }).start({
      input: 'x',
      signal: page.signal,
    });
    for (const scenario of ['completed-text', 'failed-no-text', 'waiting-approval'] as const) {
      await testClient(kestrel, { scenario }).start({ input: 'x', signal: page.signal }).result;
    }
    const detached = client.start({ input: 'x', signal: page.signal });
    detached.detach();
    await expect(detached.result).rejects.toMatchObject({ kind: 'detached' });
    // Only the run still streaming listens: aborting the page's signal still detaches it.
    await expect.poll(() => getEventListeners(page.signal, 'abort')).toHaveLength(1);
    page.abort();
    expect(live.getState().phase).toBe('detached');
    await expect(live.result).rejects.toMatchObject({ kind: 'detached' });
    expect(getEventListeners(page.signal, 'abort')).toHaveLength(0);
  });
});
