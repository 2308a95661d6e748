import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';

const open: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const CHUNK = new Uint8Array(64 * 1024);
const TOTAL_CHUNKS = 400; // 25.6 MB if nothing held it back

describe('createNodeListener', () => {
  it('reads a response body only as fast as the client takes it (backpressure), so a slow reader is not buffered in memory', async () => {
    let pulled = 0;
    const server = await listenOnLoopback(
      createNodeListener(
        () =>
          new Response(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                pulled += 1;
                if (pulled >= TOTAL_CHUNKS) controller.close();
                else controller.enqueue(CHUNK);
              },
            }),
            { headers: { 'content-type': 'application/octet-stream' } },
          ),
      ),
    );
    open.push(server);
    // A client that receives the headers and then does not read: its socket buffers fill, and then they are full.
    const paused = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${server.url}/`, (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whilePaused = pulled;
    paused.destroy();
    // Loopback socket buffers hold a few MB; without backpressure the whole 25.6 MB body is pulled at once.
    expect(whilePaused).toBeLessThan(TOTAL_CHUNKS / 2);
  });

  it('reads a request body only as fast as the handler takes it, so a body it stops reading is not buffered in memory', async () => {
    let answer: (() => void) | undefined;
    const server = await listenOnLoopback(
      createNodeListener(async (request) => {
        await request.body?.getReader().read(); // one chunk, then no more: as a handler that refuses a large body
        await new Promise<void>((resolve) => (answer = resolve));
        return new Response(null, { status: 413 });
      }),
    );
    open.push(server);
    let written = 0;
    const req = httpRequest(`${server.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
    });
    req.on('error', () => undefined);
    const writeAll = async () => {
      for (let i = 0; i < TOTAL_CHUNKS && !req.destroyed; i += 1) {
        written += 1;
        if (req.write(CHUNK)) continue;
        // Each wait removes both of its listeners, so a long write loop does not pile them up on the request.
        await new Promise<void>((resolve) => {
          const done = () => {
            req.off('drain', done).off('close', done);
            resolve();
          };
          req.once('drain', done).once('close', done);
        });
      }
    };
    void writeAll();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whileUnread = written;
    answer?.();
    req.destroy();
    // Loopback socket buffers hold a few MB; a listener that buffers the body takes all 25.6 MB at once.
    expect(whileUnread).toBeLessThan(TOTAL_CHUNKS / 2);
  });

  it('answers a Host header that is not a host with 400, before the handler', async () => {
    let called = false;
    const server = await listenOnLoopback(
      createNodeListener(() => {
        called = true;
        return new Response('ok');
      }),
    );
    open.push(server);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/v1/runs/r/result`,
        { headers: { host: 'exa mple.com' }, setHost: false },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(called).toBe(false);
  });

  it("answers a handler that throws with a generic 500, never the error's message", async () => {
    const server = await listenOnLoopback(
      createNodeListener(() => {
        throw new Error('password=hunter2');
      }),
    );
    open.push(server);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await fetch(`${server.url}/`);
    errors.mockRestore();
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('hunter2');
  });

  it('answers at once with 500 body_already_read when middleware read the body first, instead of never', async () => {
    let called = false;
    const listener = createNodeListener(() => {
      called = true;
      return new Response('ok');
    });
    // As an app that mounts express.json() before the listener: the body is read to its end, then handed over.
    const server = await listenOnLoopback(async (req, res) => {
      for await (const chunk of req) void chunk;
      void listener(req, res);
    });
    open.push(server);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await fetch(`${server.url}/v1/sessions/new/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hi' }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(errors.mock.calls[0]?.[0]).toContain('mount createNodeListener before body parsers');
    errors.mockRestore();
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_read' } });
    expect(called).toBe(false);
  });

  it('hands the handler the whole path under an Express-style mount, which strips its mount path from req.url', async () => {
    const listener = createNodeListener((request) => new Response(new URL(request.url).pathname));
    // What Express's app.use('/api/kestrel', listener) does before calling it.
    const server = await listenOnLoopback((req, res) => {
      Object.assign(req, { originalUrl: req.url });
      req.url = req.url!.slice('/api/kestrel'.length);
      void listener(req, res);
    });
    open.push(server);
    const response = await fetch(`${server.url}/api/kestrel/v1/runs/run_1/events`);
    expect(await response.text()).toBe('/api/kestrel/v1/runs/run_1/events');
  });

  it('sends each Set-Cookie of the response as its own header line, none dropped', async () => {
    const server = await listenOnLoopback(
      createNodeListener(() => {
        const headers = new Headers({ 'content-type': 'text/plain' });
        headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
        headers.append('set-cookie', 'b=2; Path=/; Expires=Wed, 09 Jun 2027 10:18:14 GMT');
        return new Response('ok', { headers });
      }),
    );
    open.push(server);
    const cookies = await new Promise<string[] | undefined>((resolve, reject) => {
      httpRequest(`${server.url}/`, (res) => {
        res.resume();
        resolve(res.headers['set-cookie']);
      })
        .on('error', reject)
        .end();
    });
    expect(cookies).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Expires=Wed, 09 Jun 2027 10:18:14 GMT']);
  });

  it("leaves out a handler's connection headers (HTTP/2 refuses them), and drops, never crashes, on a head Node cannot send", async () => {
    let cancelled = false;
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const listener = createNodeListener((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/error') return Response.error();
      // A 1xx status HTTP/2 refuses as a final answer: what `Response` itself never makes, a Response-like can.
      if (path === '/informational')
        return Object.defineProperty(
          new Response(new ReadableStream({ cancel: () => void (cancelled = true) })),
          'status',
          {
            value: 103,
          },
        );
      return new Response('ok', {
        headers: { connection: 'keep-alive, x-hop', 'keep-alive': 'timeout=5', te: 'gzip', 'x-hop': '1', 'x-a': 'b' },
      });
    });
    const server = createHttp2Server(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const get = (path: string) =>
      new Promise<{ status: unknown; xa: unknown; body: string; rstCode: number | undefined }>((resolve) => {
        const stream = client.request({ ':method': 'GET', ':path': path });
        let status: unknown;
        let xa: unknown;
        let body = '';
        stream.setEncoding('utf8');
        stream.on(
          'response',
          (headers) => (
            (status = headers[':status']),
            (xa = headers['x-hop'] === undefined ? headers['x-a'] : 'x-hop sent')
          ),
        );
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('error', () => undefined);
        stream.on('close', () => resolve({ status, xa, body, rstCode: stream.rstCode }));
        stream.end();
      });
    try {
      expect(await get('/ok')).toEqual({ status: 200, xa: 'b', body: 'ok', rstCode: 0 });
      const networkError = await get('/error');
      expect(networkError.status).toBeUndefined();
      expect(networkError.rstCode).not.toBe(0);
      expect(logged).not.toHaveBeenCalled();
      const refused = await get('/informational');
      expect(refused.status).toBeUndefined();
      expect(refused.rstCode).not.toBe(0);
      expect(cancelled).toBe(true);
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining('a status or header Node cannot send'),
        expect.anything(),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
      logged.mockRestore();
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('serves HTTP/2 (its compatibility API), whose requests carry pseudo-headers', async () => {
    const listener = createNodeListener(
      (request) => new Response(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-a')}`),
    );
    const server = createHttp2Server(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const stream = client.request({ ':method': 'GET', ':path': '/v1/runs/run_1/result', 'x-a': 'b' });
        let body = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve(body));
        stream.on('error', reject);
        stream.end();
      });
      expect(text).toBe('GET /v1/runs/run_1/result b');
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
