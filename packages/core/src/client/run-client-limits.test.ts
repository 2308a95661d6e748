import { afterEach, describe, expect, it } from 'vitest';
import { createRunClient } from './create-run-client.js';
import { rejection } from './loopback-kestrel.test-helper.js';
import {
  startRecordingServer,
  stallAfterHeaders,
  trickle,
  type RecordingServer,
  type Responder,
} from './recording-server.test-helper.js';

/* Issue 13 item 8: nothing a server sends grows the client's memory without bound, however slowly it comes. */

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function client(respond: Responder, options: { maxMessageBytes?: number; heartbeatTimeoutMs?: number } = {}) {
  const server = await startRecordingServer(respond);
  servers.push(server);
  return createRunClient({
    baseUrl: server.url,
    requestTimeoutMs: 2_000,
    heartbeatTimeoutMs: 200,
    reconnect: { attempts: 0 },
    maxMessageBytes: 1_000,
    ...options,
  });
}

describe('maxMessageBytes on the event stream', () => {
  it('a line that never ends, trickled faster than the heartbeat, ends with a protocol error naming the limit', async () => {
    const handle = (await client(trickle('text/event-stream', 'x'.repeat(100)))).start({ input: 'x' });
    const error = await rejection(handle.result);
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/: SSE message of \d+\+ bytes is over maxMessageBytes \(1000\)$/);
    expect(handle.getState()).toMatchObject({ phase: 'error', error: { kind: 'protocol' } });
  });

  it('bytes of a line that never ends count as life: the heartbeat does not end it, the size limit does', async () => {
    // 10 bytes every 5 ms reach the limit after about 100 writes, many heartbeats of 150 ms later.
    const handle = (await client(trickle('text/event-stream', 'x'.repeat(10)), { heartbeatTimeoutMs: 150 })).start({
      input: 'x',
    });
    expect((await rejection(handle.result)).kind).toBe('protocol');
    expect(handle.getState().reconnect).toBeNull();
  });

  it('a message of many short data lines over the limit is a protocol error too', async () => {
    const handle = (await client(trickle('text/event-stream', `data: ${'z'.repeat(90)}\n`))).start({ input: 'x' });
    const error = await rejection(handle.result);
    expect(error.message).toMatch(/: SSE message of \d+\+ bytes is over maxMessageBytes \(1000\)$/);
  });

  it('one oversized line sent at once is refused as it arrives', async () => {
    const handle = (await client(stallAfterHeaders('text/event-stream', `data: ${'y'.repeat(5_000)}`))).start({
      input: 'x',
    });
    expect((await rejection(handle.result)).message).toContain('is over maxMessageBytes (1000)');
  });
});

describe('maxMessageBytes on JSON bodies', () => {
  it('a /result body larger than the limit is refused', async () => {
    const fetchResult = (
      await client((_request, res) =>
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' }).end('{'.repeat(5_000)),
      )
    ).fetchResult;
    const error = await rejection(fetchResult('run_1'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(
      /^GET \/v1\/runs\/run_1\/result: a body of \d+\+ bytes is over maxMessageBytes \(1000\)$/,
    );
  });

  it('a JSON route answer streamed without a length stops at the limit', async () => {
    const json = await client(trickle('application/json', ' '.repeat(100)));
    const error = await rejection(json.run({ input: 'x' }));
    expect(error).toMatchObject({
      kind: 'protocol',
      message: 'POST /v1/sessions/new/runs: a body of 1100+ bytes is over maxMessageBytes (1000)',
    });
  });

  it('refuses a maxMessageBytes or requestTimeoutMs that is not a positive number, naming it', () => {
    expect(() => createRunClient({ baseUrl: 'http://127.0.0.1:9', maxMessageBytes: Number.NaN })).toThrow(
      'maxMessageBytes must be a positive number, got NaN',
    );
    expect(() => createRunClient({ baseUrl: 'http://127.0.0.1:9', requestTimeoutMs: 0 })).toThrow(
      'requestTimeoutMs must be a positive number, got 0',
    );
    for (const bad of [Number.NaN, 0, -1])
      expect(() => createRunClient({ baseUrl: 'http://127.0.0.1:9', heartbeatTimeoutMs: bad })).toThrow(
        `heartbeatTimeoutMs must be a positive number, got ${bad}`,
      );
    // No bound is a choice an app may make: Infinity is taken (the timers wait their longest, and again).
    expect(() =>
      createRunClient({ baseUrl: 'http://127.0.0.1:9', heartbeatTimeoutMs: Infinity, requestTimeoutMs: Infinity }),
    ).not.toThrow();
  });
});
