import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createManualFrameScheduler, getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSSEEvent } from '../protocol/encode-run-event.js';
import { createRunClient } from './create-run-client.js';
import { rejection, startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

describe('requests', () => {
  it("go through the injected fetch, with the headers function read for each one, under baseUrl's path", async () => {
    const seen: { url: string; authorization: string | null; accept: string | null }[] = [];
    let token = 0;
    const injected: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ url: String(input), authorization: headers.get('authorization'), accept: headers.get('accept') });
      return fetch(String(input).replace('/kestrel/v1/', '/v1/'), init);
    };
    const client = testClient(kestrel, {
      fetch: injected,
      baseUrl: `${kestrel.baseUrl}/kestrel/`,
      headers: async () => ({
        'x-kestrel-scenario': 'completed-text',
        'x-kestrel-fault': 'drop-at:5',
        authorization: `Bearer ${++token}`,
      }),
    });
    const handle = client.start({ input: 'x' });
    await handle.result;
    const runId = handle.getState().runId!;
    expect(seen).toEqual([
      {
        url: `${kestrel.baseUrl}/kestrel/v1/sessions/new/runs`,
        authorization: 'Bearer 1',
        accept: 'text/event-stream',
      },
      {
        url: `${kestrel.baseUrl}/kestrel/v1/runs/${runId}/events`,
        authorization: 'Bearer 2',
        accept: 'text/event-stream',
      },
    ]);
  });
});

describe('HTTP errors', () => {
  it.each([400, 401, 404, 429, 500, 503])(
    "a %i answer to start is an HTTP error with the body's code and message",
    async (status) => {
      const handle = testClient(kestrel, { scenario: 'completed-text', fault: () => `http-${status}` }).start({
        input: 'x',
      });
      const error = await rejection(handle.result);
      expect(error).toMatchObject({ kind: 'http', status, detail: { kind: 'http', status } });
      expect(error.code).toEqual(expect.any(String));
      expect(error.message).toMatch(new RegExp(`^POST /v1/sessions/new/runs: HTTP ${status} ${error.code}: .+`));
      expect(handle.getState()).toMatchObject({ phase: 'error', error: { kind: 'http', status, code: error.code } });
    },
  );

  it('the JSON route, result fetch and cancel raise the same typed HTTP error', async () => {
    const client = testClient(kestrel, { scenario: 'completed-text', fault: () => 'http-503' });
    expect(await rejection(client.run({ input: 'x' }))).toMatchObject({ kind: 'http', status: 503 });
    expect(await rejection(client.fetchResult('run_x'))).toMatchObject({ kind: 'http', status: 503 });
  });

  it('a run that has not settled has no result yet', async () => {
    const handle = testClient(kestrel, { scenario: 'completed-text', delayMs: 20 }).start({ input: 'x' });
    await expect.poll(() => handle.getState().runId).not.toBeNull();
    expect(await testClient(kestrel).fetchResult(handle.getState().runId!)).toBeNull();
    await handle.result;
    expect(await testClient(kestrel).fetchResult(handle.getState().runId!)).toEqual(handle.getState().result);
  });

  it("refuses another run's outcome from /result (a server or cache answering for the wrong id): fetchResult and a resume", async () => {
    const other = await testClient(kestrel, { scenario: 'completed-text' }).start({ input: 'x' }).result;
    // Every /result this client asks for answers with `other`'s terminal event; its events are gone (404).
    const wrongResult: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith('/result')) return Response.json(other);
      if (url.endsWith('/events'))
        return Response.json({ error: { code: 'run_not_found', message: 'gone' } }, { status: 404 });
      return fetch(input, init);
    };
    const client = testClient(kestrel, { fetch: wrongResult });
    const error = await rejection(client.fetchResult('run_mine'));
    expect(error).toMatchObject({ kind: 'protocol', detail: { kind: 'protocol', path: ['runId'] } });
    expect(error.message).toContain(`GET /v1/runs/run_mine/result answered with run "${other.runId}"`);
    const resumed = client.resume({ runId: 'run_mine' });
    expect(await rejection(resumed.result)).toMatchObject({ kind: 'protocol' });
    expect(resumed.getState()).toMatchObject({ phase: 'error', output: null });
    expect(resumed.getState().runId).not.toBe(other.runId);
  });

  it('a resumed stream that ends short is truncated, not settled by an earlier attempt’s /result (never rewound)', async () => {
    const waiting = await testClient(kestrel, { scenario: 'waiting-approval' }).start({ input: 'x' }).result;
    const { runId, sessionId } = waiting;
    // The answer's attempt has begun: seq past the WAITING outcome. Its stream ends after one delta; /result is stale.
    const delta = { type: 'text.delta', runId, sessionId, seq: waiting.seq + 2, delta: 'Sending now' };
    const staleResult: typeof fetch = async (input) => {
      const url = String(input);
      if (url.endsWith('/result')) return Response.json(waiting);
      if (url.endsWith('/events'))
        return new Response(encodeSSEEvent(delta), { headers: { 'content-type': 'text/event-stream' } });
      return fetch(input);
    };
    const resumed = testClient(kestrel, { fetch: staleResult }).resume({ runId, lastSeq: waiting.seq + 1 });
    expect(await rejection(resumed.result)).toMatchObject({ kind: 'truncated' });
    expect(resumed.getState()).toMatchObject({ phase: 'error', status: null, lastSeq: waiting.seq + 2 });
    expect(resumed.getState().draftText).toBe('Sending now');
  });

  it('a resumed stream whose /result gives its last event’s seq to run.completed is a protocol error, the event kept', async () => {
    const waiting = await testClient(kestrel, { scenario: 'waiting-approval' }).start({ input: 'x' }).result;
    const { runId, sessionId } = waiting;
    const seq = waiting.seq + 2;
    const delta = { type: 'text.delta', runId, sessionId, seq, delta: 'Sending now' };
    const output = { status: 'COMPLETED', assistantText: 'Sent', finalizedPayload: null, interaction: null };
    const sameSeq: typeof fetch = async (input) => {
      const url = String(input);
      if (url.endsWith('/result'))
        return Response.json({ type: 'run.completed', runId, sessionId, seq, attempt: 2, output });
      if (url.endsWith('/events'))
        return new Response(encodeSSEEvent(delta), { headers: { 'content-type': 'text/event-stream' } });
      return fetch(input);
    };
    const resumed = testClient(kestrel, { fetch: sameSeq }).resume({ runId, lastSeq: waiting.seq + 1 });
    expect(await rejection(resumed.result)).toMatchObject({
      detail: { kind: 'protocol', seq, eventType: 'run.completed' },
    });
    expect(resumed.getState()).toMatchObject({ phase: 'error', status: null, lastSeq: seq, draftText: 'Sending now' });
    expect(resumed.getState().events.at(-1)).toMatchObject({ type: 'text.delta', seq });

    // The same /result for a resume from that seq (the caller saw it, as the outcome): settled, as before.
    const fromIt = testClient(kestrel, { fetch: sameSeq }).resume({ runId, lastSeq: seq });
    expect(await fromIt.result).toMatchObject({ seq, output: { status: 'COMPLETED' } });
  });

  it('a resume whose events are gone is not settled by a /result older than the seq it resumes from', async () => {
    const waiting = await testClient(kestrel, { scenario: 'waiting-approval' }).start({ input: 'x' }).result;
    const goneWithStaleResult: typeof fetch = async (input) => {
      const url = String(input);
      if (url.endsWith('/result')) return Response.json(waiting);
      if (url.endsWith('/events'))
        return Response.json({ error: { code: 'run_not_found', message: 'gone' } }, { status: 404 });
      return fetch(input);
    };
    const resumed = testClient(kestrel, { fetch: goneWithStaleResult }).resume({
      runId: waiting.runId,
      lastSeq: waiting.seq + 3,
    });
    expect(await rejection(resumed.result)).toMatchObject({ kind: 'http', status: 404 });
    expect(resumed.getState()).toMatchObject({ phase: 'error', status: null, lastSeq: waiting.seq + 3 });
  });

  it('a headers function that rejects with no Error (undefined) fails the request as a transport error', async () => {
    const client = testClient(kestrel, { headers: () => Promise.reject(undefined) });
    expect(await rejection(client.fetchResult('run_1'))).toMatchObject({
      kind: 'transport',
      message: 'GET /v1/runs/run_1/result failed: undefined',
    });
  });

  it("names an error body that is not the protocol's JSON by its content type, keeping the status", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createRunClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const error = await rejection(client.run({ input: 'x' }));
      expect(error).toMatchObject({
        kind: 'http',
        status: 502,
        code: null,
        message: 'POST /v1/sessions/new/runs: HTTP 502: text/html body not shown',
      });
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe('request timeout', () => {
  it('fails with a timeout when the headers are slower than requestTimeoutMs', async () => {
    const handle = testClient(kestrel, {
      scenario: 'completed-text',
      fault: () => 'slow-start:400',
      requestTimeoutMs: 100,
    }).start({ input: 'x' });
    const error = await rejection(handle.result);
    expect(error).toMatchObject({ kind: 'timeout', detail: { kind: 'timeout', timeoutMs: 100 } });
    expect(handle.getState().phase).toBe('error');
  });

  it('waits for a slow first byte that is inside the timeout', async () => {
    const handle = testClient(kestrel, {
      scenario: 'completed-text',
      fault: () => 'slow-start:150',
      requestTimeoutMs: 1_000,
    }).start({ input: 'x' });
    expect((await handle.result).output.status).toBe('COMPLETED');
  });

  it('times out the JSON route too', async () => {
    const client = testClient(kestrel, {
      scenario: 'completed-text',
      fault: () => 'slow-start:400',
      requestTimeoutMs: 100,
    });
    expect(await rejection(client.run({ input: 'x' }))).toMatchObject({ kind: 'timeout' });
  });
});

describe('nobody awaiting result', () => {
  it('never raises an unhandled rejection, whatever ends the attempt', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const handles = [
        testClient(kestrel, { scenario: 'truncated' }).start({ input: 'x' }),
        testClient(kestrel, { scenario: 'malformed-event' }).start({ input: 'x' }),
        testClient(kestrel, { scenario: 'completed-text', fault: () => 'http-500' }).start({ input: 'x' }),
        testClient(kestrel, { scenario: 'completed-text', fault: () => 'slow-start:300', requestTimeoutMs: 50 }).start({
          input: 'x',
        }),
        createRunClient({ baseUrl: 'http://127.0.0.1:9', reconnect: { attempts: 0 } }).start({ input: 'x' }),
      ];
      const detached = testClient(kestrel, { scenario: 'completed-text', delayMs: 10 }).start({ input: 'x' });
      detached.detach();
      await expect
        .poll(() => handles.every((handle) => handle.getState().phase === 'error'), { timeout: 3_000 })
        .toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(handles.map((handle) => handle.getState().error?.kind)).toEqual([
        'truncated',
        'protocol',
        'http',
        'timeout',
        'transport',
      ]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('notification batching on a live stream', () => {
  it('with no frame ever drawn, subscribers still hear every phase change and the settled state holds every event', async () => {
    const frozen = createManualFrameScheduler(); // its frame() is never called
    const scenario = getScenario('tool-error');
    const handle = testClient(kestrel, { scenario: scenario.name, scheduler: frozen.scheduler }).start({
      input: scenario.input,
    });
    const seen: string[] = [];
    const { subscribe, getState } = handle; // unbound
    subscribe(() => seen.push(`${getState().phase}${getState().runId === null ? '' : ' (run id known)'}`));
    await handle.result;
    expect(seen).toEqual(['streaming', 'streaming (run id known)', 'settled (run id known)']);
    expect(getState().events.length).toBe(scenario.steps.length);
    expect(frozen.pending).toBe(0); // motion asked for a frame; settling notified at once and withdrew it
    expect(frozen.frames).toBe(0);
  });

  it('notifies motion at most once per frame', async () => {
    const frames = createManualFrameScheduler();
    const timer = setInterval(() => frames.frame(), 16);
    try {
      const scenario = getScenario('completed-text');
      const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 2, scheduler: frames.scheduler }).start({
        input: scenario.input,
      });
      let notifications = 0;
      handle.subscribe(() => (notifications += 1));
      await handle.result;
      const urgent = 3; // streaming, the run id becoming known, settled
      expect(notifications).toBeLessThanOrEqual(frames.frames + urgent);
      expect(notifications).toBeLessThan(handle.getState().events.length);
    } finally {
      clearInterval(timer);
    }
  });
});
