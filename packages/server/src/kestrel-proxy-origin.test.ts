import { describe, expect, it } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import { START_BODY, accept202, postJson, proxyHarness } from './proxy-harness.test-helper.js';

const { setup } = proxyHarness();

describe('createKestrelProxy: cross-site requests (CSRF)', () => {
  it('refuses a cross-site text/plain POST with 415 before reading it; nothing leaves', async () => {
    const { proxy, upstream } = await setup(accept202);
    // What a form or `fetch(..., { mode: 'no-cors' })` on another site can send with the victim's cookie, no preflight.
    const response = await fetch(`${proxy.url}/v1/sessions/new/runs`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: 'sid=victim', origin: 'https://evil.example' },
      body: START_BODY,
    });
    expect([403, 415]).toContain(response.status);
    const plain = await fetch(`${proxy.url}/v1/sessions/new/runs`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: START_BODY,
    });
    expect(plain.status).toBe(415);
    expect((await plain.json()).error.code).toBe('unsupported_media_type');
    const form = await fetch(`${proxy.url}/v1/sessions/s/interactions/i`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'kind=approval&approved=true',
    });
    expect(form.status).toBe(415);
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['a start', '/v1/sessions/new/runs', START_BODY],
    ['an answer', '/v1/sessions/ses_1/interactions/int_1', JSON.stringify({ kind: 'approval', approved: true })],
    ['a cancel', '/v1/runs/run_1/cancel', undefined],
  ])('refuses %s from another origin with 403; nothing leaves', async (_what, path, body) => {
    const { proxy, upstream } = await setup(accept202);
    const response = await fetch(`${proxy.url}${path}`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        code: 'cross_origin',
        message: 'Requests from https://evil.example may not change a run (not this origin, not in allowedOrigins)',
      },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses Origin: null and a cross-site browser request that carries no Origin', async () => {
    const { proxy, upstream } = await setup(accept202);
    const opaque = await fetch(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST', headers: { origin: 'null' } });
    expect(opaque.status).toBe(403);
    const noOrigin = await fetch(`${proxy.url}/v1/runs/run_1/cancel`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(noOrigin.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('lets the same origin, the allowedOrigins and requests without Origin (servers, scripts) through', async () => {
    const { proxy, upstream } = await setup(accept202, { allowedOrigins: ['https://app.example/'] });
    const cancel = (headers: Record<string, string>) =>
      fetch(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST', headers });
    expect((await cancel({ origin: proxy.url, 'sec-fetch-site': 'same-origin' })).status).toBe(202);
    expect((await cancel({ origin: 'https://app.example' })).status).toBe(202);
    expect((await cancel({})).status).toBe(202);
    expect((await cancel({ 'sec-fetch-site': 'same-origin' })).status).toBe(202);
    // A start with a charset parameter is JSON too: it reaches the upstream (whose bare 202 is then no terminal event).
    await postJson(`${proxy.url}/v1/sessions/new/runs`, START_BODY, {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(upstream.requests).toHaveLength(5);
    // Another port is another origin.
    expect((await cancel({ origin: proxy.url.replace(/:\d+$/, ':1') })).status).toBe(403);
  });

  it('lets reads (resume, result) through from any origin: they change nothing, and CORS keeps the answer from another site', async () => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'run_not_settled', message: 'Still running' } }));
    });
    expect(
      (await fetch(`${proxy.url}/v1/runs/run_1/result`, { headers: { origin: 'https://other.example' } })).status,
    ).toBe(409);
  });

  it('refuses an allowedOrigins entry that is not an origin when the proxy is created', () => {
    expect(() => createKestrelProxy({ upstream: 'http://127.0.0.1:1', allowedOrigins: ['*'] })).toThrow(
      /allowedOrigins\[0\] "\*" is not an origin/,
    );
    expect(() =>
      createKestrelProxy({ upstream: 'http://127.0.0.1:1', allowedOrigins: ['https://app.example/ui'] }),
    ).toThrow(/allowedOrigins\[0\]/);
    expect(() => createKestrelProxy({ upstream: 'http://127.0.0.1:1', maxBodyBytes: 0 })).toThrow(
      /maxBodyBytes must be a positive integer/,
    );
  });
});
