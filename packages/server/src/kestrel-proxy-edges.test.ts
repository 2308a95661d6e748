import { createEventFactory } from '@kestrel/testing';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKestrelProxy, type KestrelProxyOptions } from './kestrel-proxy.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener, type NodeListenerOptions } from './node-listener.js';
import { nodeFetch } from './node-fetch.js';
import { askOnce, startRawUpstream } from './raw-upstream.test-helper.js';

/*
 * Answers and timings a Kestrel (or a browser) should not produce, on both ways the proxy can be served: `native`
 * (createNodeListener with the proxy itself: node:http end to end) and `web` (the same proxy behind a wrapper, so
 * through the web-standard path and the global fetch).
 */

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const APP_SECRET = 'Bearer app-secret-7f3a';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(
  mode: 'native' | 'web',
  upstream: string,
  options: Partial<KestrelProxyOptions> = {},
  listener: NodeListenerOptions = {},
) {
  const proxy = createKestrelProxy({ upstream, headers: { authorization: APP_SECRET }, ...options });
  const server: LoopbackServer = await listenOnLoopback(
    createNodeListener(mode === 'native' ? proxy : (request) => proxy(request), listener),
  );
  open.push(server);
  return server;
}

const start = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' } };

describe.each(['native', 'web'] as const)('createKestrelProxy (%s path): odd answers and early leaves', (mode) => {
  it('starts nothing when the browser left while a hook ran', async () => {
    const kestrel = await startRawUpstream((socket) =>
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n'),
    );
    open.push(kestrel);
    let leftBeforeHookEnded = false;
    const proxy = await serve(mode, kestrel.url, {
      getHeaders: async (request) => {
        await sleep(150); // a session lookup, a token exchange
        leftBeforeHookEnded = request.signal.aborted;
        return {};
      },
    });
    const browser = httpRequest(`${proxy.url}/v1/sessions/new/runs`, { ...start, agent: false });
    browser.on('error', () => undefined);
    browser.end('{"input":"hi"}');
    await sleep(50);
    browser.destroy(); // the tab closed before the proxy called Kestrel
    await sleep(400);
    expect(leftBeforeHookEnded).toBe(true);
    expect(kestrel.requests).toBe(0); // no run that nobody follows (the next message would meet 409 run_in_progress)
  });

  it('answers a 101 from Kestrel with a 502 instead of leaving the browser waiting', async () => {
    const kestrel = await startRawUpstream((socket) =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
    );
    open.push(kestrel);
    const proxy = await serve(mode, kestrel.url, { upstreamTimeoutMs: 300 });
    const answer = await askOnce(`${proxy.url}/v1/sessions/new/runs`, {
      ...start,
      body: '{"input":"hi"}',
      deadlineMs: 3_000,
    });
    expect(answer).toMatchObject({ status: 502, ending: 'clean' });
  });

  it('answers a status of 600 from Kestrel with 502 upstream_protocol_error, not a crash', async () => {
    const kestrel = await startRawUpstream((socket) =>
      socket.write('HTTP/1.1 600 Odd\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'),
    );
    open.push(kestrel);
    const proxy = await serve(mode, kestrel.url, { upstreamTimeoutMs: 1_000 });
    const answer = await askOnce(`${proxy.url}/v1/runs/run_1/result`, { deadlineMs: 3_000 });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).error.code).toBe('upstream_protocol_error');
  });

  it('ends a stream before a block with an id but no data, which would move an EventSource past unseen events', async () => {
    const e = createEventFactory();
    const frame = (event: { type: string; seq: number }) =>
      `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    const good = frame(e.started(1)) + frame(e.received());
    const kestrel = await startRawUpstream((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
      const body = `${good}id: 999\n\n${frame(e.text('never seen'))}`;
      socket.write(`${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    });
    open.push(kestrel);
    const errors: string[] = [];
    const proxy = await serve(mode, kestrel.url, { onProtocolError: (error) => errors.push(error.message) });
    const answer = await askOnce(`${proxy.url}/v1/sessions/new/runs`, {
      ...start,
      body: '{"input":"hi"}',
      deadlineMs: 3_000,
    });
    expect(answer).toEqual({ status: 200, body: good, ending: 'clean' });
    expect(errors).toEqual([expect.stringMatching(/id "999" but no data/)]);
  });

  it('cuts off a browser that reads nothing for stalledReaderTimeoutMs, and stops its Kestrel stream', async () => {
    const e = createEventFactory();
    const frame = (event: { type: string; seq: number }) =>
      `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    let upstreamClosed = false;
    const kestrel = await startRawUpstream((socket) => {
      socket.on('close', () => (upstreamClosed = true));
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
      const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
      socket.write(chunk(frame(e.started(1)) + frame(e.received())));
      const word = 'x'.repeat(60_000);
      // As fast as the proxy takes it: the browser's buffers fill, then the proxy's socket, then this one.
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk(frame(e.text(word)))));
      };
      socket.on('drain', pump);
      pump();
    });
    open.push(kestrel);
    const proxy = await serve(mode, kestrel.url, {}, { stalledReaderTimeoutMs: 300 });
    const browser = httpRequest(`${proxy.url}/v1/sessions/new/runs`, { ...start, agent: false }, (res) => res.pause());
    browser.on('error', () => undefined);
    browser.end('{"input":"hi"}');
    await vi.waitFor(() => expect(upstreamClosed).toBe(true), { timeout: 5_000, interval: 50 });
    browser.destroy();
  });

  it('does not cut a browser that keeps reading a large event for its size (6 MB/s here, bound 300 ms)', async () => {
    const e = createEventFactory();
    const frame = (event: { type: string; seq: number }) =>
      `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    // A 12 MB terminal event (under maxUpstreamBodyBytes): one write of it takes the slow reader well past the bound.
    const final = e.completed({ status: 'COMPLETED', assistantText: 'x'.repeat(12 * 1024 * 1024) });
    const body = frame(e.started(1)) + frame(e.received()) + frame(final);
    const kestrel = await startRawUpstream((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n`);
      socket.end(body);
    });
    open.push(kestrel);
    const proxy = await serve(mode, kestrel.url, {}, { stalledReaderTimeoutMs: 300 });
    const received = await new Promise<{ bytes: number; ending: string }>((resolve) => {
      let bytes = 0;
      const browser = httpRequest(`${proxy.url}/v1/sessions/new/runs`, { ...start, agent: false }, (res) => {
        // About 6 MB/s: 128 KiB every 20 ms, paused in between, so the event takes about 2 s to read.
        let budget = 128 * 1024;
        const tick = setInterval(() => {
          budget = 128 * 1024;
          res.resume();
        }, 20);
        const end = (ending: string) => () => {
          clearInterval(tick);
          resolve({ bytes, ending });
        };
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          budget -= chunk.length;
          if (budget <= 0) res.pause();
        });
        res.on('end', end('end'));
        res.on('aborted', end('aborted'));
      });
      browser.on('error', () => resolve({ bytes, ending: 'error' }));
      browser.end('{"input":"hi"}');
    });
    expect(received).toEqual({ bytes: body.length, ending: 'end' });
  }, 20_000);

  it("drops a cancel answer's body: the protocol defines none, and one could echo the proxy's credentials", async () => {
    const echo = JSON.stringify({ accepted: true, debug: { authorization: APP_SECRET } });
    const kestrel = await startRawUpstream((socket) =>
      socket.write(
        `HTTP/1.1 202 Accepted\r\ncontent-type: application/json\r\ncontent-length: ${echo.length}\r\n\r\n${echo}`,
      ),
    );
    open.push(kestrel);
    const proxy = await serve(mode, kestrel.url);
    const answer = await askOnce(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST', deadlineMs: 3_000 });
    expect(answer).toEqual({ status: 202, body: '', ending: 'clean' });
  });
});

describe('nodeFetch: answers no Response can carry', () => {
  it('rejects a 101 instead of never settling, so the proxy answers 502', async () => {
    const kestrel = await startRawUpstream((socket) =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
    );
    open.push(kestrel);
    const server = await listenOnLoopback(
      createNodeListener(createKestrelProxy({ upstream: kestrel.url, fetch: nodeFetch, upstreamTimeoutMs: 300 })),
    );
    open.push(server);
    await expect(nodeFetch(`${kestrel.url}/v1/runs/run_1/result`)).rejects.toThrow(/101/);
    const answer = await askOnce(`${server.url}/v1/runs/run_1/result`, { deadlineMs: 3_000 });
    expect(answer).toMatchObject({ status: 502, ending: 'clean' });
  });
});

describe("createNodeListener and the app's own fetch dispatcher", () => {
  const key = Symbol.for('undici.globalDispatcher.1');
  const global = globalThis as Record<symbol, unknown>;

  it('goes through an egress dispatcher the app set (setGlobalDispatcher), which node:http would bypass', async () => {
    const kestrel = await startRawUpstream((socket) =>
      socket.write('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'),
    );
    open.push(kestrel);
    const proxy = await serve('native', kestrel.url);
    await fetch(`${kestrel.url}/warm-up`); // undici installs its own plain Agent on first use
    const plain = global[key] as { dispatch: (options: unknown, handler: unknown) => boolean };
    let dispatched = 0;
    // What ProxyAgent, EnvHttpProxyAgent or an interceptor chain look like to the listener: not undici's plain Agent.
    class EgressAgent {
      dispatch(options: unknown, handler: unknown) {
        dispatched += 1;
        return plain.dispatch(options, handler);
      }
    }
    await askOnce(`${proxy.url}/v1/runs/run_1/result`, { deadlineMs: 3_000 });
    expect(dispatched).toBe(0); // with undici's own Agent: the native path
    global[key] = new EgressAgent();
    try {
      const answer = await askOnce(`${proxy.url}/v1/runs/run_1/result`, { deadlineMs: 3_000 });
      expect(answer.status).toBe(404);
      expect(dispatched).toBe(1);
    } finally {
      global[key] = plain;
    }
  });
});

describe('createNodeListener: stalledReaderTimeoutMs', () => {
  const handler = () => new Response('ok');

  it('refuses a bound no timer can hold (it would fire after 1 ms) and anything not a positive integer', () => {
    for (const bad of [2 ** 31, Number.MAX_SAFE_INTEGER, 0, -1, 1.5, Number.NaN])
      expect(() => createNodeListener(handler, { stalledReaderTimeoutMs: bad })).toThrow(RangeError);
  });

  it('takes Infinity for no bound, and the longest a timer can hold', () => {
    expect(() => createNodeListener(handler, { stalledReaderTimeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => createNodeListener(handler, { stalledReaderTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});
