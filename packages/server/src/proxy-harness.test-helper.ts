import type { ProtocolError } from '@kestrel/core';
import { request as httpRequest } from 'node:http';
import { afterEach } from 'vitest';
import { createKestrelProxy, type KestrelProxyOptions } from './kestrel-proxy.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';
import { startScriptedUpstream, type UpstreamScript } from './scripted-upstream.js';

/** The app's static key in every harness: what must never reach the browser. */
export const APP_SECRET = 'Bearer app-secret-7f3a';

/**
 * Real loopback servers for proxy tests: a scripted upstream that records what it receives and the proxy in front
 * of it, both on 127.0.0.1, closed after each test.
 */
export function proxyHarness() {
  const open: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });

  async function setup(script: UpstreamScript, options: Partial<KestrelProxyOptions> = {}) {
    const upstream = await startScriptedUpstream(script);
    const protocolErrors: ProtocolError[] = [];
    const proxy = await listenOnLoopback(
      createNodeListener(
        createKestrelProxy({
          upstream: upstream.url,
          headers: { authorization: APP_SECRET },
          getHeaders: (request) => ({ 'x-kestrel-user': request.headers.get('x-app-user') ?? 'anonymous' }),
          onProtocolError: (error) => protocolErrors.push(error),
          ...options,
        }),
      ),
    );
    open.push(upstream, proxy);
    return { upstream, proxy, protocolErrors };
  }

  /** Keeps a server of the test's own open until the test ends. */
  const track = <T extends LoopbackServer>(server: T): T => {
    open.push(server);
    return server;
  };
  return { setup, track };
}

/** The body of a start, as the browser's client sends it. */
export const START_BODY = JSON.stringify({ input: 'What is the capital of Australia?' });

/** A same-origin-free POST of JSON, as a server or the run client in Node sends it (no `Origin`). */
export const postJson = (url: string, body: string = START_BODY, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body,
  });

/** One raw HTTP/1.1 request, its target and headers exactly as given (fetch would normalise `%2e%2e` and Host). */
export function rawRequest(url: string, init: { method?: string; path: string; headers?: Record<string, string> }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: init.method ?? 'GET',
        path: init.path,
        headers: init.headers,
        setHost: init.headers?.host === undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** An upstream script that accepts everything with a bare 202 (what a cancel gets). */
export const accept202: UpstreamScript = (_request, res) => {
  res.writeHead(202);
  res.end();
};

/** An upstream script that answers every request with `status` and `body` as JSON. */
export const answerJson =
  (status: number, body: unknown): UpstreamScript =>
  (_request, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
