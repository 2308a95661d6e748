import { getScenario } from '@kestrel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rejection, startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';
import {
  routeTo,
  startRecordingServer,
  stallAfterHeaders,
  stallBeforeHeaders,
  trickle,
  type RecordingServer,
  type Responder,
} from './recording-server.test-helper.js';

/*
 * Issue 13 item 7: every path of the client ends, with a typed error, against a server that sends its headers and
 * then nothing. Timeouts are small; nothing here asserts how long anything took.
 */

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function stalling(respond: Responder): Promise<RecordingServer> {
  const server = await startRecordingServer(respond);
  servers.push(server);
  return server;
}

const jsonStall = stallAfterHeaders('application/json', '{"type":"run.comp');
// Long enough that a loaded machine still answers the mock in time, short enough to keep the suite quick.
const LIMIT_MS = 400;
const limits = {
  requestTimeoutMs: LIMIT_MS,
  heartbeatTimeoutMs: LIMIT_MS,
  reconnect: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, jitter: 0 },
};

describe('a server that stalls after the headers', () => {
  it('fetchResult: a /result body that stops mid-way is a timeout error naming requestTimeoutMs', async () => {
    const server = await stalling(jsonStall);
    const error = await rejection(testClient(kestrel, { ...limits, baseUrl: server.url }).fetchResult('run_1'));
    expect(error).toMatchObject({ kind: 'timeout', runId: 'run_1', detail: { kind: 'timeout', timeoutMs: LIMIT_MS } });
    expect(error.message).toContain(`GET /v1/runs/run_1/result: no data for ${LIMIT_MS} ms (requestTimeoutMs)`);
  });

  it('client.run: a JSON route answer that stops mid-way is a timeout error', async () => {
    const server = await stalling(jsonStall);
    const error = await rejection(testClient(kestrel, { ...limits, baseUrl: server.url }).run({ input: 'x' }));
    expect(error).toMatchObject({ kind: 'timeout', detail: { kind: 'timeout', timeoutMs: LIMIT_MS } });
  });

  it('resume: a run whose /result stalls does not stay connecting; it ends in a timeout error', async () => {
    const server = await stalling((request, res) =>
      request.path.endsWith('/result') ? jsonStall(request, res) : res.writeHead(404).end(),
    );
    const handle = testClient(kestrel, { ...limits, baseUrl: server.url }).resume({ runId: 'run_1' });
    const error = await rejection(handle.result);
    expect(error.kind).toBe('timeout');
    expect(handle.getState()).toMatchObject({ phase: 'error', error: { kind: 'timeout', timeoutMs: LIMIT_MS } });
  });

  it('start: a stream that stays silent after its headers ends as a transport error (heartbeat), never a hang', async () => {
    const server = await stalling(stallAfterHeaders('text/event-stream', ': hello\n'));
    const handle = testClient(kestrel, { ...limits, baseUrl: server.url }).start({ input: 'x' });
    const error = await rejection(handle.result);
    expect(error.kind).toBe('transport');
    expect(error.message).toContain('heartbeat timeout');
    expect(handle.getState().phase).toBe('error');
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1); // the start is not re-sent
  });

  it('respond: an answer whose stream stalls after the headers ends the new attempt with an error', async () => {
    const scenario = getScenario('waiting-form');
    const server = await stalling(stallAfterHeaders('text/event-stream'));
    let answered = false;
    const route = routeTo(server, (path) => answered || path.includes('/interactions/'));
    const client = testClient(kestrel, {
      ...limits,
      scenario: scenario.name,
      fetch: (input, init) => route(input, init),
    });
    const waiting = client.start({ input: scenario.input });
    await waiting.result;
    answered = true; // from here every request, the reconnect to /events included, meets the stalling server
    const next = await waiting.respond(scenario.continuation!.answer);
    const error = await rejection(next.result);
    expect(error.kind).toBe('transport');
    expect(next.getState().phase).toBe('error');
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']); // the answer once, then one resume
  });

  it('respond: no headers within requestTimeoutMs rejects with a timeout, and the answer may be sent again', async () => {
    const scenario = getScenario('waiting-form');
    const server = await stalling(stallBeforeHeaders);
    const client = testClient(kestrel, {
      ...limits,
      scenario: scenario.name,
      fetch: routeTo(server, (path) => path.includes('/interactions/')),
    });
    const waiting = client.start({ input: scenario.input });
    await waiting.result;
    expect(await rejection(waiting.respond(scenario.continuation!.answer))).toMatchObject({ kind: 'timeout' });
    expect(waiting.getState().status).toBe('WAITING');
  });

  it('cancel: resolves once the headers arrive, without waiting for a body that never comes', async () => {
    const server = await stalling(jsonStall);
    const client = testClient(kestrel, {
      ...limits,
      scenario: 'completed-text',
      delayMs: 30,
      fetch: routeTo(server, (path) => path.endsWith('/cancel')),
    });
    const handle = client.start({ input: 'x' });
    await expect(handle.cancel()).resolves.toBeUndefined();
    expect(server.requests.map((request) => request.method + ' ' + request.path)).toEqual([
      `POST /v1/runs/${handle.getState().runId}/cancel`,
    ]);
    handle.detach();
  });

  it('cancel: no headers within requestTimeoutMs rejects with a timeout', async () => {
    const server = await stalling(stallBeforeHeaders);
    const client = testClient(kestrel, {
      ...limits,
      scenario: 'completed-text',
      delayMs: 30,
      fetch: routeTo(server, (path) => path.endsWith('/cancel')),
    });
    const handle = client.start({ input: 'x' });
    expect(await rejection(handle.cancel())).toMatchObject({ kind: 'timeout', detail: { timeoutMs: LIMIT_MS } });
    handle.detach();
  });
});

describe('a custom fetch that ignores its AbortSignal', () => {
  // An app's fetch wrapper that drops the signal, or a mock: aborting the request no longer ends its body, so the
  // client cancels the body itself. Without that, each of these waits for good.
  const deaf: typeof fetch = (input, init) => fetch(input, { ...init, signal: null });

  it('start: a stream that stays silent still ends at the heartbeat with a transport error', async () => {
    const server = await stalling(stallAfterHeaders('text/event-stream', ': hello\n'));
    const handle = testClient(kestrel, { ...limits, baseUrl: server.url, fetch: deaf }).start({ input: 'x' });
    const error = await rejection(handle.result);
    expect(error.kind).toBe('transport');
    expect(error.message).toContain('heartbeat timeout');
  });

  it('detach: the client stops reading a body that never ends, and says the connection closed', async () => {
    const server = await stalling(trickle('text/event-stream', ': tick\n'));
    const handle = testClient(kestrel, { ...limits, baseUrl: server.url, fetch: deaf }).start({ input: 'x' });
    const closed: string[] = [];
    handle.subscribeTransport((event) => {
      if (event.type === 'connection-closed') closed.push(event.outcome);
    });
    await expect.poll(() => handle.getState().phase).toBe('streaming');
    handle.detach();
    await expect.poll(() => closed).toEqual(['stopped']);
  });

  it('start: headers that never come still end at requestTimeoutMs, as a timeout error', async () => {
    const server = await stalling(stallBeforeHeaders);
    const handle = testClient(kestrel, { ...limits, baseUrl: server.url, fetch: deaf }).start({ input: 'x' });
    expect(await rejection(handle.result)).toMatchObject({ kind: 'timeout', detail: { timeoutMs: LIMIT_MS } });
    expect(handle.getState().phase).toBe('error');
  });

  it('fetchResult: a body that stops mid-way is a timeout; a 500 whose error body stops is the 500 (the body is evidence only)', async () => {
    const errorBodyStall: Responder = (_request, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.flushHeaders();
      res.write('{"error":');
    };
    for (const [respond, expected] of [
      [jsonStall, { kind: 'timeout' }],
      [errorBodyStall, { kind: 'http', status: 500 }],
    ] as const) {
      const server = await stalling(respond);
      const client = testClient(kestrel, { ...limits, baseUrl: server.url, fetch: deaf });
      expect(await rejection(client.fetchResult('run_1'))).toMatchObject(expected);
    }
  });

  /** A fetch deaf to its signal answering after `delayMs`, with a body that sends `first` and then waits for good. */
  const lateAnswer = (delayMs: number, first: string) => {
    const body = { cancelled: false };
    const fetchLate: typeof fetch = () =>
      new Promise((resolve) => {
        const stream = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode(first)),
          cancel: () => {
            body.cancelled = true;
          },
        });
        setTimeout(() => resolve(new Response(stream, { headers: { 'content-type': 'application/json' } })), delayMs);
      });
    return { body, fetch: fetchLate };
  };

  it('fetchResult: an answer that comes after the request timed out has its body cancelled, not left open', async () => {
    const late = lateAnswer(LIMIT_MS * 2, '{"type":');
    const client = testClient(kestrel, { ...limits, fetch: late.fetch });
    expect(await rejection(client.fetchResult('run_1'))).toMatchObject({ kind: 'timeout' });
    expect(late.body.cancelled).toBe(false);
    await expect.poll(() => late.body.cancelled, { timeout: LIMIT_MS * 5 }).toBe(true);
  });

  it('fetchResult: a JSON body that stalls is cancelled when the wait for it ends', async () => {
    const late = lateAnswer(0, '{"type":');
    const client = testClient(kestrel, { ...limits, fetch: late.fetch });
    expect(await rejection(client.fetchResult('run_1'))).toMatchObject({ kind: 'timeout' });
    await expect.poll(() => late.body.cancelled).toBe(true);
  });

  it("run (JSON route): the caller's abort ends a request whose headers never come", async () => {
    const server = await stalling(stallBeforeHeaders);
    const abort = new AbortController();
    const pending = testClient(kestrel, { baseUrl: server.url, fetch: deaf, requestTimeoutMs: 60_000 }).run({
      input: 'x',
      signal: abort.signal,
    });
    abort.abort(new Error('left the page'));
    await expect(pending).rejects.toThrow('left the page');
  });
});

describe('headers the app resolves (a token fetched on demand) that never come', () => {
  const hung = { headers: () => new Promise<Record<string, string>>(() => undefined) };

  it('start: the request still ends at requestTimeoutMs, as a timeout error, with nothing sent', async () => {
    const before = kestrel.requests.length;
    const handle = testClient(kestrel, { ...limits, ...hung }).start({ input: 'hi' });
    const error = await rejection(handle.result);
    expect(error).toMatchObject({ kind: 'timeout', detail: { timeoutMs: LIMIT_MS } });
    expect(handle.getState().phase).toBe('error');
    expect(kestrel.requests.length).toBe(before);
  });

  it('run (JSON route): aborting its signal ends it with the abort reason', async () => {
    const abort = new AbortController();
    const pending = testClient(kestrel, { ...hung, requestTimeoutMs: 60_000 }).run({
      input: 'hi',
      signal: abort.signal,
    });
    abort.abort(new Error('left the page'));
    await expect(pending).rejects.toThrow('left the page');
  });
});
