import { requestErrorBodySchema } from '@kestrel/core';
import { createKestrelProxy } from './kestrel-proxy.js';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { APP_SECRET, START_BODY, answerJson, postJson, proxyHarness, rawRequest } from './proxy-harness.test-helper.js';
import { startScriptedUpstream } from './scripted-upstream.js';

const { setup, track } = proxyHarness();

describe('createKestrelProxy: no pass-through of the query string', () => {
  it("drops the browser's query string", async () => {
    const { proxy, upstream } = await setup(
      answerJson(409, { error: { code: 'run_not_settled', message: 'Still running' } }),
    );
    await fetch(`${proxy.url}/v1/runs/run_1/result?api_key=x&tenant=other`);
    await fetch(`${proxy.url}/v1/runs/run_1/cancel?tenant=other`, { method: 'POST' });
    expect(upstream.requests.map((request) => request.url)).toEqual(['/v1/runs/run_1/result', '/v1/runs/run_1/cancel']);
  });

  it('forwards the session listing with only its validated before and limit, and relays the page as JSON', async () => {
    const page = { runs: [], nextCursor: null };
    const { proxy, upstream } = await setup(answerJson(200, page));
    const response = await fetch(`${proxy.url}/v1/sessions/ses_1/runs?limit=10&before=cur_2&api_key=x`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual(page);
    expect(upstream.requests[0]?.url).toBe('/v1/sessions/ses_1/runs?before=cur_2&limit=10');
    const bad = await fetch(`${proxy.url}/v1/sessions/ses_1/runs?limit=1000`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_query');
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('createKestrelProxy: the session listing is validated', () => {
  const run = (fields: Record<string, unknown>) => ({
    runId: 'run_1',
    sessionId: 'ses_1',
    input: 'Hello',
    createdAt: '2026-12-01T10:00:00Z',
    attempt: 1,
    live: false,
    answers: [],
    ...fields,
  });

  it.each([
    ['a run of another session', { runs: [run({ sessionId: 'ses_other' })], nextCursor: null }, 'runs[0].sessionId'],
    [
      'a result that is not a terminal event',
      { runs: [run({ result: { type: 'run.completed' } })], nextCursor: null },
      'runs[0].result',
    ],
    ['no runs array', { nextCursor: null }, 'runs'],
  ])('answers 502 naming the field, and forwards nothing of %s', async (_what, page, field) => {
    const { proxy } = await setup(answerJson(200, page));
    const response = await fetch(`${proxy.url}/v1/sessions/ses_1/runs`);
    expect(response.status).toBe(502);
    const body = requestErrorBodySchema.parse(await response.json());
    expect(body.error.code).toBe('upstream_protocol_error');
    expect(body.error.message).toContain(field);
  });
});

describe('createKestrelProxy: upstream redirects', () => {
  it.each([
    ['a start (307 would re-send the body and the key)', 307, (url: string) => postJson(`${url}/v1/sessions/new/runs`)],
    ['a result', 302, (url: string) => fetch(`${url}/v1/runs/run_1/result`)],
    [
      'a resume',
      301,
      (url: string) => fetch(`${url}/v1/runs/run_1/events`, { headers: { accept: 'text/event-stream' } }),
    ],
  ])('answers 502 upstream_redirect to a redirect on %s, and never follows it', async (_what, status, send) => {
    const elsewhere = track(await startScriptedUpstream((_request, res) => res.end('{}')));
    const { proxy } = await setup((request, res) => {
      res.writeHead(status, { location: `${elsewhere.url}${request.url}` });
      res.end();
    });
    const response = await send(proxy.url);
    expect(response.status).toBe(502);
    expect((await response.json()).error.code).toBe('upstream_redirect');
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('createKestrelProxy: upstream errors', () => {
  it('never serves the upstream HTML on the app origin: a cancel error and a cancel answer become JSON or nothing', async () => {
    let status = 500;
    const { proxy } = await setup((_request, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end('<script>alert(document.cookie)</script>');
    });
    const failed = await fetch(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toContain('application/json');
    expect(requestErrorBodySchema.parse(await failed.json()).error.code).toBe('upstream_error');
    status = 202;
    const accepted = await fetch(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST' });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('content-type')).toBeNull();
    expect(await accepted.text()).toBe('');
  });

  it("relays a cancel's status without its body, which the protocol does not define (so nothing unchecked goes out)", async () => {
    const { proxy } = await setup(answerJson(202, { status: 'cancelling', echo: APP_SECRET }));
    const response = await fetch(`${proxy.url}/v1/runs/run_1/cancel`, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it("redacts the proxy's own credential values from an upstream message it relays", async () => {
    const { proxy } = await setup(
      answerJson(401, {
        error: {
          code: 'unauthorized',
          message: `Key "${APP_SECRET}" (app-secret-7f3a) is revoked; user token tok_user_123 too`,
        },
      }),
      { getHeaders: () => ({ 'x-user-token': 'tok_user_123' }) },
    );
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthorized', message: 'Key "[redacted]" ([redacted]) is revoked; user token [redacted] too' },
    });
  });

  it("redacts the proxy's own credential values from the content type it names when it refuses an answer", async () => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(200, { 'content-type': `text/plain; echo="${APP_SECRET}"` });
      res.end('{}');
    });
    const response = await fetch(`${proxy.url}/v1/runs/run_1/result`);
    expect(response.status).toBe(502);
    const { error } = await response.json();
    expect(error.message).toBe('Kestrel answered 200 with "text/plain; echo="[redacted]""');
  });

  it('redacts before it cuts a long content type, so no start of a secret across the cut passes', async () => {
    // The secret starts at character 97 of the header: cut at 100 first, its start "Bea" would go out unmatched.
    const padded = `text/plain; x="${'a'.repeat(77)}"; k=${APP_SECRET}`;
    const { proxy } = await setup((_request, res) => {
      res.writeHead(200, { 'content-type': padded });
      res.end('{}');
    });
    const { error } = await (await fetch(`${proxy.url}/v1/runs/run_1/result`)).json();
    expect(error.message).toContain('k=[re'); // the marker is what is cut
    expect(error.message).not.toContain('Bea');
  });

  it('never relays an upstream error code that carries a credential or is not an identifier', async () => {
    for (const [code, relayed] of [
      [`bad_key_${'app-secret-7f3a'}`, 'bad_key_[redacted]'],
      ['<b>html</b>', 'upstream_error'],
      ['x'.repeat(65), 'upstream_error'],
    ] as const) {
      const { proxy } = await setup(answerJson(401, { error: { code, message: 'no' } }));
      const response = await postJson(`${proxy.url}/v1/sessions/new/runs`);
      expect((await response.json()).error.code, code).toBe(relayed);
    }
  });

  it('forwards Last-Event-ID only on a resume, and only as a seq', async () => {
    const { proxy, upstream } = await setup(answerJson(200, { ok: true }));
    const sent = async (path: string, value: string, init: RequestInit = {}) => {
      await fetch(`${proxy.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'last-event-id': value },
      });
      return upstream.requests.at(-1)!.headers['last-event-id'];
    };
    expect(await sent('/v1/runs/run_1/events', '42')).toBe('42');
    expect(await sent('/v1/runs/run_1/events', '42; DROP')).toBeUndefined();
    expect(await sent('/v1/runs/run_1/events', '0')).toBeUndefined();
    expect(await sent('/v1/runs/run_1/result', '42')).toBeUndefined();
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: START_BODY };
    expect(await sent('/v1/sessions/new/runs', '42', post)).toBeUndefined();
  });

  it('forwards a form answer field named __proto__ as the own key it was, not silently dropped', async () => {
    const { proxy, upstream } = await setup(answerJson(200, { ok: true }));
    const body = '{"kind":"form","values":{"__proto__":"v","a":"b"}}';
    await postJson(`${proxy.url}/v1/sessions/ses_1/interactions/int_1`, body);
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toEqual(JSON.parse(body));
    expect(upstream.requests.at(-1)!.body).toContain('"__proto__":"v"');
  });
});

/** Sends raw bytes, so a Host no client library would send reaches the server as written. */
function rawHttp(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('createKestrelProxy: bad paths are 4xx', () => {
  it.each([
    ['/v1/runs/%E0%A4%A/result', 'malformed percent-encoding'],
    ['/v1/runs//result', 'empty'],
    ['/v1/runs//events', 'empty'],
  ])('answers %s with 400 naming the id, and sends nothing upstream', async (path, what) => {
    const { proxy, upstream } = await setup(answerJson(200, {}));
    const response = await rawRequest(proxy.url, { path });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error).toMatchObject({
      code: 'invalid_path',
      message: expect.stringContaining(what),
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it.each(['/v1/runs/%2e%2e/result', '/v1/runs/./events', '/v1/sessions/%2E%2E/runs'])(
    'never lets %s name another resource upstream (the URL parser resolves the dots first: 404)',
    async (path) => {
      const { proxy, upstream } = await setup(answerJson(200, {}));
      const response = await rawRequest(proxy.url, { path });
      expect(response.status).toBe(404);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it('answers an invalid Host with 400, not a 500', async () => {
    const { proxy, upstream } = await setup(answerJson(200, {}));
    const answer = await rawHttp(
      proxy.port,
      'GET /v1/runs/run_1/result HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"invalid_host"');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('createKestrelProxy: forwardHeaders', () => {
  it.each([
    'Content-Length',
    'transfer-encoding',
    'accept-encoding',
    'connection',
    'keep-alive',
    'upgrade',
    'te',
    'trailer',
    'expect',
    'host',
    'proxy-authorization',
  ])(
    'refuses %s when the proxy is created: it frames the request or the connection, and the proxy rebuilds the body',
    (name) => {
      expect(() =>
        createKestrelProxy({ upstream: 'http://127.0.0.1:1', forwardHeaders: ['x-kestrel-scenario', name] }),
      ).toThrow(new RegExp(`forwardHeaders\\[1\\] "${name}" frames the request or the connection`));
    },
  );

  it.each([
    ['no scheme', 'kestrel.internal:8080', 'a scheme is required'],
    ['an unset environment variable', undefined, 'it is undefined: is its environment variable set?'],
    ['an empty environment variable', '', 'it is empty: is its environment variable set?'],
    ['another scheme', 'ftp://kestrel.internal', 'a scheme is required'],
    ['not a URL', 'http://', 'a scheme is required'],
  ])('refuses an upstream with %s when the proxy is created, naming the option', (_what, upstream, why) => {
    expect(() => createKestrelProxy({ upstream: upstream as string })).toThrow(
      new TypeError(
        `createKestrelProxy: upstream must be Kestrel's absolute http: or https: URL, such as http://kestrel.internal:8080 (${why})`,
      ),
    );
  });

  it('refuses credentials, a query or a fragment in the upstream URL without echoing them', () => {
    const create = (upstream: string) => () => createKestrelProxy({ upstream });
    expect(create('https://svc:hunter2@kestrel.internal')).toThrow(/upstream must not carry credentials/);
    expect(create('https://svc:hunter2@kestrel.internal')).not.toThrow(/hunter2/);
    expect(create('https://kestrel.internal/p?token=hunter2')).toThrow(/upstream must not carry a query or fragment/);
    expect(create('https://kestrel.internal/p?token=hunter2')).not.toThrow(/hunter2/);
    expect(create('https://kestrel.internal/p#x')).toThrow(/upstream must not carry a query or fragment/);
  });

  it('takes the upstreams Kestrel is really at: an IPv6 literal, a path prefix, a URL object, a trailing slash', () => {
    for (const upstream of [
      'http://[::1]:8080',
      'https://gw.internal/kestrel/',
      new URL('http://127.0.0.1:1'),
      'HTTP://k:80/',
    ])
      expect(() => createKestrelProxy({ upstream })).not.toThrow();
  });

  it('warns when the upstream ends in /v1, which the proxy adds itself', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    createKestrelProxy({ upstream: 'http://127.0.0.1:1/v1/' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('upstream ends in /v1'));
    warn.mockClear();
    createKestrelProxy({ upstream: 'http://127.0.0.1:1/V1' });
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockClear();
    createKestrelProxy({ upstream: 'http://127.0.0.1:1/kestrel' });
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('takes a header of the app, case-insensitively', () => {
    expect(() =>
      createKestrelProxy({ upstream: 'http://127.0.0.1:1', forwardHeaders: ['X-Kestrel-Scenario', 'x-tenant'] }),
    ).not.toThrow();
  });
});
