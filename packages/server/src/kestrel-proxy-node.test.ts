import { encodeSSEEvent, parseSSEMessage } from '@kestrel/core';
import { createEventFactory, type WireEvent } from '@kestrel/testing';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import { createNodeListener } from './node-listener.js';
import type { KestrelProxyOptions } from './proxy-options.js';
import { START_BODY, postJson, proxyHarness } from './proxy-harness.test-helper.js';
import { readSSEResponse } from './read-sse-response.test-helper.js';
import { sleep, type UpstreamScript } from './scripted-upstream.js';

/*
 * `createNodeListener(createKestrelProxy(...))` takes the native path (Kestrel over node:http, the event stream
 * written straight to the ServerResponse). Every test here checks a behaviour through it over real loopback HTTP,
 * and that the proxy never reached Kestrel through the global `fetch` (the web path's way), unless the app passed
 * its own `fetch`.
 */

const { setup: setupProxy } = proxyHarness();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const globalFetch = globalThis.fetch;
let upstreamUrl = '';
let upstreamFetches = 0;
beforeEach(() => {
  upstreamFetches = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    if (upstreamUrl !== '' && String(input instanceof Request ? input.url : input).startsWith(upstreamUrl))
      upstreamFetches++;
    return globalFetch(input, init);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  upstreamUrl = '';
});

/** The proxy harness, noting the upstream's address so the test can tell the global `fetch` never went there. */
async function setup(script: UpstreamScript, options: Partial<KestrelProxyOptions> = {}) {
  const harness = await setupProxy(script, options);
  upstreamUrl = harness.upstream.url;
  return harness;
}

const sse = (events: readonly WireEvent[]) => events.map((event) => encodeSSEEvent(event as never)).join('');
const sseHead = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
/** A whole run of `deltas` text deltas, numbered from seq 1. */
function run(deltas: number): WireEvent[] {
  const e = createEventFactory({ runId: 'run_node', sessionId: 'ses_node' });
  return [
    e.started(1),
    e.received(),
    ...Array.from({ length: deltas }, (_, i) => e.text(`word ${i} `)),
    e.turnEnd('completed'),
    e.idle(),
    e.completed({ status: 'COMPLETED', assistantText: 'Done.' }),
  ];
}
const resume = (url: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${url}/v1/runs/run_node/events`, {
    headers: { accept: 'text/event-stream', ...headers },
    ...(signal === undefined ? {} : { signal }),
  });

/** Resolves once `check` holds, polling; fails the test after `tries` polls instead of waiting forever. */
async function eventually(check: () => boolean, tries = 100): Promise<void> {
  for (let i = 0; i < tries && !check(); i++) await sleep(25);
  expect(check()).toBe(true);
}

/** An upstream that pushes deltas as fast as its writes are taken, counting what it wrote, up to 128 MiB. */
function floodingUpstream() {
  const e2 = createEventFactory({ runId: 'run_node', sessionId: 'ses_node' });
  const batch = Buffer.from(sse(Array.from({ length: 500 }, (_, i) => e2.text(`word ${i} `.repeat(4)))));
  const flood = { written: 0, closed: false };
  const LIMIT = 128 * 1024 * 1024; // what the upstream would push through if nothing held it back
  const script: UpstreamScript = (_request, res) => {
    sseHead(res);
    res.on('close', () => (flood.closed = true));
    res.write(sse([e2.started(1), e2.received()]));
    const pump = () => {
      while (!res.destroyed && flood.written < LIMIT) {
        flood.written += batch.length;
        if (!res.write(batch)) return void res.once('drain', pump);
      }
    };
    pump();
  };
  /** Held back: the upstream's count stops moving (three polls in a row), long before all of it went through. */
  const heldBack = async () => {
    let last = -1;
    let still = 0;
    await eventually(() => {
      still = flood.written === last ? still + 1 : 0;
      last = flood.written;
      return still >= 3 || flood.written >= LIMIT;
    }, 200);
    expect(flood.written).toBeLessThan(32 * 1024 * 1024);
  };
  return { flood, script, heldBack };
}

/**
 * A browser on HTTP/2 takes the headers of a flooding upstream's stream and reads nothing, then resets the stream
 * (NO_ERROR, not CANCEL: Node's response then never emits 'close', its writes waiting for a window that won't open).
 */
async function http2BrowserLeaves(options: Partial<KestrelProxyOptions>): Promise<void> {
  const { flood, script, heldBack } = floodingUpstream();
  const { upstream } = await setup(script);
  const listener = createNodeListener(createKestrelProxy({ upstream: upstream.url, ...options }));
  const server = createHttp2Server(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const stream = client.request({
      ':method': 'GET',
      ':path': '/v1/runs/run_node/events',
      accept: 'text/event-stream',
    });
    const status = await new Promise((resolve, reject) => {
      stream.once('response', (headers) => resolve(headers[':status']));
      stream.once('error', reject);
    });
    expect(status).toBe(200);
    stream.pause(); // the stream's flow-control window fills, then the proxy's writes stop being taken
    await heldBack();
    stream.close();
    await eventually(() => flood.closed);
  } finally {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * Reads a run's event stream through the proxy served by an HTTP/2 server: the messages' count and how it ended
 * (`ended` cleanly, or `dropped`: reset with an error code or failed).
 */
async function readOverHttp2(
  upstreamUrl: string,
  options: Partial<KestrelProxyOptions>,
): Promise<{ messages: number; ending: 'ended' | 'dropped' }> {
  const listener = createNodeListener(createKestrelProxy({ upstream: upstreamUrl, ...options }));
  const server = createHttp2Server(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    return await new Promise((resolve) => {
      const stream = client.request({
        ':method': 'GET',
        ':path': '/v1/runs/run_node/events',
        accept: 'text/event-stream',
      });
      let text = '';
      let failed = false;
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (text += chunk));
      stream.on('error', () => (failed = true));
      stream.on('close', () =>
        resolve({
          messages: text.split('\n\n').length - 1,
          ending: failed || stream.rstCode !== 0 ? 'dropped' : 'ended',
        }),
      );
      stream.end();
    });
  } finally {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** An upstream that sends the first four events of a run, then drops its connection. */
const droppingUpstream: UpstreamScript = async (_request, res) => {
  sseHead(res);
  res.write(sse(run(3).slice(0, 4)));
  await sleep(30);
  res.destroy();
};

describe('createNodeListener(createKestrelProxy()): the native path', () => {
  it("relays a run byte for byte in the upstream's chunks, every event checked, and reaches Kestrel without fetch", async () => {
    const text = sse(run(300));
    const cuts = [0, 1000, 1001, 9000, text.length];
    const { proxy, protocolErrors } = await setup(async (_request, res) => {
      sseHead(res);
      for (let i = 1; i < cuts.length; i++) {
        res.write(text.slice(cuts[i - 1], cuts[i]));
        await sleep(5);
      }
      res.end();
    });
    const response = await resume(proxy.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const relayed = await response.text();
    expect(relayed).toBe(text);
    expect(protocolErrors).toEqual([]);
    expect(upstreamFetches).toBe(0);
  });

  it('forwards the offending message last, then ends, and tells onProtocolError, when the upstream breaks the protocol', async () => {
    let upstreamClosed = false;
    const events = run(5);
    const bad = `event: text.delta\nid: 4\ndata: ${JSON.stringify({ ...events[3], runId: 42 })}\n\n`;
    const { proxy, protocolErrors } = await setup((_request, res) => {
      sseHead(res);
      res.on('close', () => (upstreamClosed = true));
      res.write(sse(events.slice(0, 3)) + bad + sse(events.slice(4)));
      // Stays open: the proxy, not the upstream, ends the browser's response.
    });
    const { messages, ending } = await readSSEResponse(await resume(proxy.url));
    expect(ending).toBe('clean');
    expect(messages.map((message) => message.id)).toEqual(['1', '2', '3', '4']);
    expect(() => parseSSEMessage(messages.at(-1)!)).toThrow();
    expect(protocolErrors.map((error) => error.seq)).toEqual([4]);
    expect(protocolErrors[0]?.path).toEqual(['runId']);
    await eventually(() => upstreamClosed);
    expect(upstreamFetches).toBe(0);
  });

  it("survives an onProtocolError of the app's that throws: the stream ends as usual, and the proxy serves on", async () => {
    const events = run(3);
    const bad = `event: text.delta\nid: 3\ndata: ${JSON.stringify({ ...events[2], seq: 'x' })}\n\n`;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { proxy } = await setup(
      (_request, res) => {
        sseHead(res);
        res.end(sse(events.slice(0, 2)) + bad);
      },
      {
        onProtocolError: () => {
          throw new Error('reporter down');
        },
      },
    );
    for (let i = 0; i < 2; i++) {
      const { messages, ending } = await readSSEResponse(await resume(proxy.url));
      expect(ending).toBe('clean');
      expect(messages.map((message) => message.id)).toEqual(['1', '2', '3']);
    }
    expect(logged).toHaveBeenCalledWith('[kestrel proxy] onProtocolError threw', expect.any(Error));
    expect(upstreamFetches).toBe(0);
  });

  it('cuts the browser connection, without inventing an end, when the upstream drops mid-stream', async () => {
    const { proxy } = await setup(async (_request, res) => {
      sseHead(res);
      res.write(sse(run(3).slice(0, 4)));
      await sleep(30);
      res.destroy();
    });
    const clientErrors: Error[] = [];
    proxy.server.on('clientError', (error: Error) => clientErrors.push(error));
    const { messages, ending } = await readSSEResponse(await resume(proxy.url));
    expect(ending).toBe('dropped');
    expect(messages).toHaveLength(4);
    // A drop the relay made is no client's error: a server that logs clientError would log every dropped stream.
    await sleep(30);
    expect(clientErrors).toEqual([]);
    expect(upstreamFetches).toBe(0);
  });

  it('resets an HTTP/2 browser stream with an error, not a clean end, when the upstream drops mid-stream', async () => {
    const { upstream } = await setup(droppingUpstream);
    expect(await readOverHttp2(upstream.url, {})).toEqual({ messages: 4, ending: 'dropped' });
    const whole = await setup((_request, res) => {
      sseHead(res);
      res.end(sse(run(3)));
    });
    expect(await readOverHttp2(whole.upstream.url, {})).toEqual({ messages: 8, ending: 'ended' });
    expect(upstreamFetches).toBe(0);
  });

  it('stops the upstream request when the browser leaves', async () => {
    let upstreamClosed = false;
    const { proxy } = await setup((_request, res) => {
      sseHead(res);
      res.write(sse(run(1).slice(0, 2)));
      res.on('close', () => (upstreamClosed = true));
    });
    const abort = new AbortController();
    const response = await resume(proxy.url, {}, abort.signal);
    await response.body?.getReader().read();
    abort.abort();
    await eventually(() => upstreamClosed);
    expect(upstreamFetches).toBe(0);
  });

  it('reads the upstream only as fast as the browser reads (backpressure): a reader that stops holds the upstream back', async () => {
    const { flood, script, heldBack } = floodingUpstream();
    const { proxy } = await setup(script);
    // A browser that takes the headers and then reads nothing: its socket buffers fill, then the proxy's, then
    // the upstream's writes stop being taken.
    const browser = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/v1/runs/run_node/events`, { headers: { accept: 'text/event-stream' } });
      req.on('response', (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
    await heldBack();
    browser.destroy();
    await eventually(() => flood.closed);
    expect(upstreamFetches).toBe(0);
  });

  it('holds the upstream back for a browser on HTTP/2 that stops reading, and stops it when that browser resets the stream', async () => {
    await http2BrowserLeaves({});
    expect(upstreamFetches).toBe(0);
  });

  it('passes Last-Event-ID upstream for a resume, and relays what follows it', async () => {
    const events = run(10);
    const { proxy, upstream } = await setup((request, res) => {
      sseHead(res);
      const after = Number(request.headers['last-event-id']);
      res.end(sse(events.filter((event) => event.seq > after)));
    });
    const { messages } = await readSSEResponse(await resume(proxy.url, { 'last-event-id': '7' }));
    expect(upstream.requests[0]?.headers['last-event-id']).toBe('7');
    expect(messages[0]?.id).toBe('8');
    expect(messages.at(-1)?.event).toBe('run.completed');
    expect(upstreamFetches).toBe(0);
  });

  it("hears onRunStarted with the run's ids before the browser gets a byte of the stream", async () => {
    let bytesWhenHeard = -1;
    let received = 0;
    const heard: string[] = [];
    const { proxy } = await setup(
      (_request, res) => {
        sseHead(res);
        res.end(sse(run(3)));
      },
      {
        onRunStarted: async ({ runId, sessionId }) => {
          // Long enough for bytes already written to reach the browser: none must have been.
          await sleep(50);
          bytesWhenHeard = received;
          heard.push(`${sessionId}/${runId}`);
        },
      },
    );
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/v1/sessions/new/runs`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      req.on('error', reject);
      req.end(START_BODY);
    });
    expect(heard).toEqual(['ses_node/run_node']);
    expect(bytesWhenHeard).toBe(0);
    expect(body).toBe(sse(run(3)));
    expect(upstreamFetches).toBe(0);
  });

  it('refuses a cross-site POST before anything goes upstream', async () => {
    const { proxy, upstream } = await setup((_request, res) => {
      sseHead(res);
      res.end(sse(run(1)));
    });
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`, START_BODY, {
      accept: 'text/event-stream',
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('cross_origin');
    expect(upstream.requests).toHaveLength(0);
  });

  it("keeps nothing of the browser's request while a stream stays open (no onProtocolError of the app's)", async () => {
    let ref: WeakRef<Request> | undefined;
    const { proxy } = await setup(
      (_request, res) => {
        sseHead(res);
        res.write(sse(run(1).slice(0, 2))); // then open and silent, as an idle run is
      },
      {
        authorize: (request) => {
          ref = new WeakRef(request);
          return undefined;
        },
        // The harness's own reporter would keep the request by design: an app's onProtocolError is told it.
        onProtocolError: undefined,
      },
    );
    const abort = new AbortController();
    const response = await resume(proxy.url, {}, abort.signal);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('run.started');
    let collected = false;
    for (let attempt = 0; attempt < 5 && !collected; attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      collected = ref?.deref() === undefined;
    }
    expect(collected).toBe(true);
    abort.abort();
    expect(upstreamFetches).toBe(0);
  });
});

describe("createNodeListener(createKestrelProxy({ fetch })): the app's own fetch", () => {
  it('is what reaches Kestrel (the web path), with the same relay', async () => {
    const calls: string[] = [];
    const text = sse(run(20));
    const { proxy } = await setup(
      (_request, res) => {
        sseHead(res);
        res.end(text);
      },
      {
        fetch: (input, init) => {
          calls.push(String(input));
          return globalFetch(input, init);
        },
      },
    );
    expect(await (await resume(proxy.url)).text()).toBe(text);
    expect(calls).toEqual([`${upstreamUrl}/v1/runs/run_node/events`]);
  });

  it('resets an HTTP/2 browser stream with an error there too when the upstream drops mid-stream', async () => {
    const { upstream } = await setup(droppingUpstream);
    expect(await readOverHttp2(upstream.url, { fetch: globalFetch })).toEqual({ messages: 4, ending: 'dropped' });
  });

  it('stops the upstream when a browser on HTTP/2 that stopped reading resets the stream', async () => {
    await http2BrowserLeaves({ fetch: globalFetch });
  });

  it("survives an onProtocolError of the app's that throws there too: the offending message last, the upstream stopped", async () => {
    const events = run(3);
    const bad = `event: text.delta\nid: 3\ndata: ${JSON.stringify({ ...events[2], seq: 'x' })}\n\n`;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let upstreamClosed = false;
    const { proxy } = await setup(
      (_request, res) => {
        sseHead(res);
        res.on('close', () => (upstreamClosed = true));
        res.write(sse(events.slice(0, 2)) + bad); // and stays open: only the proxy can stop it
      },
      {
        fetch: (input, init) => globalFetch(input, init),
        onProtocolError: () => {
          throw new Error('reporter down');
        },
      },
    );
    const { messages, ending } = await readSSEResponse(await resume(proxy.url));
    expect(ending).toBe('clean');
    expect(messages.map((message) => message.id)).toEqual(['1', '2', '3']);
    await eventually(() => upstreamClosed);
    expect(logged).toHaveBeenCalledWith('[kestrel proxy] onProtocolError threw', expect.any(Error));
  });
});
