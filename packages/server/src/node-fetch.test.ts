import { getScenario, stepsToSSE } from '@kestrel/testing';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import { listenOnLoopback } from './listen-loopback.js';
import { nodeFetch } from './node-fetch.js';
import { createNodeListener } from './node-listener.js';
import { APP_SECRET, postJson, proxyHarness, START_BODY } from './proxy-harness.test-helper.js';
import { readSSEResponse } from './read-sse-response.test-helper.js';
import { sleep, startScriptedUpstream } from './scripted-upstream.js';

const { setup, track } = proxyHarness();
const viaNode = { fetch: nodeFetch };
const sseHead = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const startRun = (url: string) => postJson(`${url}/v1/sessions/new/runs`, START_BODY, { accept: 'text/event-stream' });

describe('createKestrelProxy({ fetch: nodeFetch }): Kestrel reached over node:http', () => {
  it('relays a whole run as Kestrel sent it, with the body and credentials the proxy built and no accept-encoding', async () => {
    const steps = getScenario('completed-text').steps;
    const sent = stepsToSSE(steps, { keepAlive: true });
    const { proxy, upstream } = await setup((_request, res) => {
      sseHead(res);
      res.end(sent);
    }, viaNode);
    const response = await startRun(proxy.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(await response.text()).toBe(sent);
    const [request] = upstream.requests;
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request?.body ?? '')).toEqual(JSON.parse(START_BODY));
    expect(request?.headers.authorization).toBe(APP_SECRET);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['accept-encoding']).toBeUndefined();
  });

  it('cuts the browser connection, without a terminal event, when Kestrel drops mid-stream', async () => {
    const steps = getScenario('dropped-mid-stream').steps;
    const { proxy } = await setup(async (_request, res) => {
      sseHead(res);
      res.write(stepsToSSE(steps));
      await sleep(50);
      res.destroy();
    }, viaNode);
    const { messages, ending } = await readSSEResponse(await startRun(proxy.url));
    expect(ending).toBe('dropped');
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.some((message) => message.event === 'run.completed')).toBe(false);
  });

  it('closes the connection to Kestrel when the browser leaves an open stream', async () => {
    let closed: () => void = () => undefined;
    const upstreamClosed = new Promise<void>((resolve) => (closed = resolve));
    const { proxy } = await setup((_request, res) => {
      sseHead(res);
      res.write(stepsToSSE(getScenario('completed-text').steps.slice(0, 2)));
      res.on('close', () => closed());
    }, viaNode);
    const browser = new AbortController();
    const response = await fetch(`${proxy.url}/v1/runs/run_1/events`, {
      headers: { accept: 'text/event-stream' },
      signal: browser.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    browser.abort();
    await expect(upstreamClosed).resolves.toBeUndefined();
  });

  it('never follows a redirect: 502 upstream_redirect, and nothing reaches the other server', async () => {
    const elsewhere = track(await startScriptedUpstream((_request, res) => res.end('{}')));
    const { proxy } = await setup((request, res) => {
      res.writeHead(307, { location: `${elsewhere.url}${request.url}` });
      res.end();
    }, viaNode);
    const response = await startRun(proxy.url);
    expect(response.status).toBe(502);
    expect((await response.json()).error.code).toBe('upstream_redirect');
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('answers 502 upstream_unreachable when Kestrel cannot be reached, and 504 when it stays silent', async () => {
    const gone = await listenOnLoopback(() => undefined);
    await gone.close();
    const unreachable = track(
      await listenOnLoopback(createNodeListener(createKestrelProxy({ upstream: gone.url, ...viaNode }))),
    );
    const refused = await startRun(unreachable.url);
    expect(refused.status).toBe(502);
    expect((await refused.json()).error.code).toBe('upstream_unreachable');

    const { proxy } = await setup(() => undefined, { ...viaNode, upstreamTimeoutMs: 100 });
    const silent = await startRun(proxy.url);
    expect(silent.status).toBe(504);
    expect((await silent.json()).error.code).toBe('upstream_timeout');
  });

  it('relays a bodiless 204 (an accepted cancel) as it came', async () => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(204);
      res.end();
    }, viaNode);
    const cancel = await postJson(`${proxy.url}/v1/runs/run_1/cancel`, '{}');
    expect(cancel.status).toBe(204);
    expect(await cancel.text()).toBe('');
  });

  it('refuses what it does not do with a TypeError naming it, before anything is sent', async () => {
    const upstream = track(await startScriptedUpstream((_request, res) => res.end('{}')));
    await expect(nodeFetch(new Request(upstream.url))).rejects.toThrow(/not a Request/);
    await expect(nodeFetch(upstream.url, { method: 'POST', body: new Uint8Array([1]) })).rejects.toThrow(
      /string body or none/,
    );
    await expect(nodeFetch(upstream.url, { redirect: 'follow' })).rejects.toThrow(/must be "manual", not "follow"/);
    expect(upstream.requests).toHaveLength(0);
  });
});
