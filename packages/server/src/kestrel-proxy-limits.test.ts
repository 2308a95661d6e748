import { getScenario, scenarioEvents } from '@kestrel/testing';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import { DEFAULT_MAX_BODY_BYTES } from './proxy-options.js';
import { postJson, proxyHarness } from './proxy-harness.test-helper.js';
import { sleep } from './scripted-upstream.js';

const { setup } = proxyHarness();

/**
 * POSTs `chunks` chunked (no content-length) and then neither ends nor sends more: the answer must come from what
 * was sent so far. Resolves with the status, or 0 when none came within `withinMs` (the proxy waited for the end).
 */
function postThenStall(url: string, chunks: Uint8Array[], withinMs = 5_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      },
    );
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    setTimeout(() => {
      resolve(0);
      req.destroy();
    }, withinMs);
  });
}

describe('createKestrelProxy: request body limit', () => {
  it('refuses a body over 1 MiB as soon as it is exceeded, without waiting for its end; nothing leaves', async () => {
    const { proxy, upstream } = await setup((_request, res) => res.end());
    const piece = new TextEncoder().encode(`{"input":"${'a'.repeat(256 * 1024)}`);
    const status = await postThenStall(`${proxy.url}/v1/sessions/new/runs`, [piece, piece, piece, piece, piece]);
    expect(status).toBe(413);
    await sleep(50);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a declared content-length over the limit before reading a byte', async () => {
    const { proxy, upstream } = await setup((_request, res) => res.end());
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/v1/sessions/new/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders(); // headers only: the body never comes
    });
    expect(status).toBe(413);
    expect(upstream.requests).toHaveLength(0);
  });

  it('takes maxBodyBytes, and a body of exactly the limit passes', async () => {
    const body = JSON.stringify({ input: 'x'.repeat(50) });
    const { proxy, upstream } = await setup(
      (_request, res) => {
        res.writeHead(202);
        res.end();
      },
      { maxBodyBytes: body.length },
    );
    await postJson(`${proxy.url}/v1/sessions/new/runs`, body);
    expect(upstream.requests).toHaveLength(1);
    const over = await postJson(`${proxy.url}/v1/sessions/new/runs`, JSON.stringify({ input: 'x'.repeat(51) }));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      error: { code: 'body_too_large', message: `The request body is larger than ${body.length} bytes` },
    });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('createKestrelProxy: upstream answer limit', () => {
  const terminal = scenarioEvents(getScenario('completed-text').steps).find((event) => event.type === 'run.completed');

  it.each([
    ['the JSON route', () => postJson],
    ['the result', () => (url: string) => fetch(url.replace('/v1/sessions/new/runs', '/v1/runs/run_1/result'))],
  ])('answers 502 upstream_too_large when %s is over maxUpstreamBodyBytes', async (_what, send) => {
    const { proxy } = await setup(
      (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(terminal));
      },
      { maxUpstreamBodyBytes: 100 },
    );
    const response = await send()(`${proxy.url}/v1/sessions/new/runs`);
    expect(response.status).toBe(502);
    expect((await response.json()).error).toEqual({
      code: 'upstream_too_large',
      message: "Kestrel's terminal event is larger than 100 bytes",
    });
  });

  it('stops reading an endless upstream answer at the limit instead of holding it', async () => {
    let upstreamClosed = false;
    const { proxy } = await setup(
      async (_request, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.on('close', () => (upstreamClosed = true));
        for (let i = 0; i < 10_000 && !res.destroyed; i += 1) {
          res.write('<p>'.padEnd(16 * 1024, 'x'));
          await sleep(1);
        }
      },
      { maxUpstreamBodyBytes: 64 * 1024 },
    );
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`);
    expect(response.status).toBe(502);
    expect((await response.json()).error.code).toBe('upstream_too_large');
    for (let i = 0; i < 50 && !upstreamClosed; i += 1) await sleep(20);
    expect(upstreamClosed).toBe(true);
  });

  it('ends an event stream whose message is over maxUpstreamBodyBytes, forwarding none of it, and reports it', async () => {
    const scenario = getScenario('completed-text');
    const events = scenarioEvents(scenario.steps);
    const { proxy, protocolErrors } = await setup(
      (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`id: 1\nevent: run.started\ndata: ${JSON.stringify(events[0])}\n\n`);
        // One line that never ends, far over the limit: the proxy must stop there, not buffer it or loop.
        res.write(`data: ${'x'.repeat(64 * 1024)}`);
      },
      { maxUpstreamBodyBytes: 16 * 1024 },
    );
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`, undefined, { accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('event: run.started');
    expect(text).not.toContain('xxxx');
    expect(protocolErrors).toHaveLength(1);
    expect(protocolErrors[0]!.message).toMatch(/maxMessageBytes \(16384\)/);
  });

  it('counts that limit in bytes: a message of three-byte characters is cut at the bytes, not at a third of them', async () => {
    const { proxy, protocolErrors } = await setup(
      (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // 6,000 characters, 18,000 bytes in UTF-8, sent in pieces that each stay under the 16 KiB limit.
        for (let piece = 0; piece < 6; piece += 1)
          res.write(piece === 0 ? `data: ${'語'.repeat(1_000)}` : '語'.repeat(1_000));
      },
      { maxUpstreamBodyBytes: 16 * 1024 },
    );
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`, undefined, { accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain('語');
    expect(protocolErrors).toHaveLength(1);
    expect(protocolErrors[0]!.message).toMatch(/SSE message of \d+\+ bytes is over maxMessageBytes \(16384\)/);
  });

  it.each([
    [
      'its headers never come',
      async (_request: unknown, res: ServerResponse) => {
        await sleep(5_000);
        res.end();
      },
    ],
    [
      'its JSON answer stops half-way',
      async (_request: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"type":"run.comp');
        await sleep(5_000);
        res.end();
      },
    ],
  ])('answers 504 upstream_timeout when Kestrel stays silent (%s) past upstreamTimeoutMs', async (_what, script) => {
    const { proxy } = await setup(script, { upstreamTimeoutMs: 200 });
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`);
    expect(response.status).toBe(504);
    expect((await response.json()).error).toEqual({
      code: 'upstream_timeout',
      message: 'Kestrel sent nothing for 200 ms',
    });
  });
});

describe('createKestrelProxy: upstreamTimeoutMs', () => {
  const terminal = scenarioEvents(getScenario('completed-text').steps).find((event) => event.type === 'run.completed');
  const slowJsonAnswer = async (_request: unknown, res: ServerResponse) => {
    await sleep(150);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(terminal));
  };

  it.each([
    ['the longest a timer holds', 2 ** 31 - 1],
    ['Infinity, for no bound', Number.POSITIVE_INFINITY],
  ])('takes %s, and waits for a slow JSON answer instead of timing out at once', async (_what, upstreamTimeoutMs) => {
    const { proxy } = await setup(slowJsonAnswer, { upstreamTimeoutMs });
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(terminal);
  });

  it('refuses a bound no timer can hold (it would fire after 1 ms), and anything not a positive integer, naming ms', () => {
    for (const bad of [2 ** 31, Number.MAX_SAFE_INTEGER, 0, -1, 1.5, Number.NaN])
      expect(() => createKestrelProxy({ upstream: 'http://127.0.0.1:1', upstreamTimeoutMs: bad })).toThrow(
        /upstreamTimeoutMs must be a positive integer of at most 2147483647 ms, or Infinity/,
      );
  });
});

describe('createKestrelProxy: JSON nested past what can be written again', () => {
  // 100,000 levels: 200 KB, under every size limit, and far past the depth JSON.stringify's stack reaches.
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

  it('refuses a start body nested that deeply as a 400 naming it, and sends nothing', async () => {
    const { proxy, upstream } = await setup((_request, res) => res.end());
    const body = `{"input":"x","responseFormat":{"type":"json_schema","name":"deep","schema":{"items":${deep}}}}`;
    const response = await postJson(`${proxy.url}/v1/sessions/new/runs`, body);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: 'invalid_request',
      message: 'The run request is nested too deeply',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers a session listing nested that deeply with 502 upstream_protocol_error, not a crash', async () => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"runs":[],"nextCursor":null,"extra":${deep}}`);
    });
    const response = await fetch(`${proxy.url}/v1/sessions/ses_1/runs`);
    expect(response.status).toBe(502);
    expect((await response.json()).error).toEqual({
      code: 'upstream_protocol_error',
      message: expect.stringContaining('the session listing is nested too deeply to relay'),
    });
  });
});
