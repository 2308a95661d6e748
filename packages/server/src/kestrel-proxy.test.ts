import { ProtocolError, encodeSSEEvent, parseSSEMessage, requestErrorBodySchema } from '@kestrel/core';
import { getScenario, scenarioEvents, stepsToSSE, type WireEvent } from '@kestrel/testing';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createKestrelProxy, type KestrelProxyOptions } from './kestrel-proxy.js';
import { listenOnLoopback } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';
import { APP_SECRET, postJson, proxyHarness } from './proxy-harness.test-helper.js';
import { readSSEResponse } from './read-sse-response.test-helper.js';
import { sleep, startScriptedUpstream } from './scripted-upstream.js';

const { setup, track } = proxyHarness();

const sseHead = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const terminalOf = (name: string): WireEvent => {
  const found = scenarioEvents(getScenario(name).steps).find((event) => event.type === 'run.completed');
  if (found === undefined) throw new Error(`${name} has no terminal event`);
  return found;
};
const startRun = (url: string, accept = 'text/event-stream', init: RequestInit = {}) =>
  fetch(`${url}/v1/sessions/new/runs`, {
    method: 'POST',
    headers: { accept, 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify({ input: 'What is the capital of Australia?' }),
    ...(init.signal ? { signal: init.signal } : {}),
  });

describe('createKestrelProxy: event streams', () => {
  it('forwards a whole run message for message, ids from seq, keep-alives included, and ends after it', async () => {
    const steps = getScenario('completed-text').steps;
    const { proxy, upstream } = await setup((_request, res) => {
      sseHead(res);
      res.end(stepsToSSE(steps, { keepAlive: true }));
    });
    const response = await startRun(proxy.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const { messages, comments, ending } = await readSSEResponse(response);
    expect(ending).toBe('clean');
    expect(comments).toContain('keep-alive');
    expect(messages.map((message) => JSON.parse(message.data))).toEqual(scenarioEvents(steps));
    for (const message of messages) expect(message.id).toBe(String(parseSSEMessage(message).seq));
    expect(upstream.requests[0]?.url).toBe('/v1/sessions/new/runs');
    expect(JSON.parse(upstream.requests[0]?.body ?? '')).toEqual({ input: 'What is the capital of Australia?' });
  });

  it("adds the app's credentials and keeps the browser's own cookies and auth behind", async () => {
    const { proxy, upstream } = await setup((_request, res) => {
      sseHead(res);
      res.end(stepsToSSE(getScenario('completed-text').steps));
    });
    await readSSEResponse(
      await startRun(proxy.url, 'text/event-stream', {
        headers: { cookie: 'sid=browser', authorization: 'Bearer browser', 'x-app-user': 'u_42' },
      }),
    );
    const headers = upstream.requests[0]?.headers;
    expect(headers?.authorization).toBe(APP_SECRET);
    expect(headers?.['x-kestrel-user']).toBe('u_42');
    expect(headers?.accept).toBe('text/event-stream');
    expect(headers?.cookie).toBeUndefined();
  });

  it('passes Last-Event-ID through for resume', async () => {
    const events = scenarioEvents(getScenario('dropped-mid-stream').steps);
    const { proxy, upstream } = await setup((request, res) => {
      sseHead(res);
      const after = Number(request.headers['last-event-id']);
      res.end(
        events
          .filter((event) => event.seq > after)
          .map(encodeSSEEvent)
          .join(''),
      );
    });
    const response = await fetch(`${proxy.url}/v1/runs/run_dropped/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': '9' },
    });
    const { messages } = await readSSEResponse(response);
    expect(upstream.requests[0]?.url).toBe('/v1/runs/run_dropped/events');
    expect(upstream.requests[0]?.headers['last-event-id']).toBe('9');
    expect(messages[0]?.id).toBe('10');
    expect(messages.at(-1)?.event).toBe('run.completed');
  });

  it('cuts the browser connection, without a terminal event, when the upstream drops', async () => {
    const steps = getScenario('dropped-mid-stream').steps;
    const { proxy } = await setup(async (_request, res) => {
      sseHead(res);
      res.write(stepsToSSE(steps)); // up to the drop fault
      await sleep(50);
      res.destroy();
    });
    const { messages, ending } = await readSSEResponse(await startRun(proxy.url));
    expect(ending).toBe('dropped');
    expect(messages.length).toBe(
      scenarioEvents(
        steps.slice(
          0,
          steps.findIndex((step) => step.kind === 'drop'),
        ),
      ).length,
    );
    expect(messages.some((message) => message.event === 'run.completed')).toBe(false);
  });

  it('ends cleanly, still without a terminal event, when the upstream ends early (truncated)', async () => {
    const steps = getScenario('truncated').steps;
    const { proxy } = await setup((_request, res) => {
      sseHead(res);
      res.end(stepsToSSE(steps));
    });
    const { messages, ending } = await readSSEResponse(await startRun(proxy.url));
    expect(ending).toBe('clean');
    expect(messages).toHaveLength(scenarioEvents(steps).length);
    expect(messages.some((message) => message.event === 'run.completed')).toBe(false);
  });

  it.each(['malformed-event', 'event-name-mismatch', 'turn-end-without-kind', 'event-after-completed'])(
    'ends the response at the first protocol error of %s, forwarding nothing after it',
    async (name) => {
      const steps = getScenario(name).steps;
      const extra = encodeSSEEvent({
        type: 'text.delta',
        runId: 'run_x',
        sessionId: 'ses_root',
        seq: 999,
        delta: 'never forwarded',
      });
      const { proxy, protocolErrors } = await setup((_request, res) => {
        sseHead(res);
        res.end(stepsToSSE(steps) + extra);
      });
      const { messages, ending } = await readSSEResponse(await startRun(proxy.url));
      expect(ending).toBe('clean');
      expect(protocolErrors).toHaveLength(1);
      expect(messages.some((message) => message.id === '999')).toBe(false);
      // Every message but the last is valid; the last is the offending one, as the browser will report it.
      const last = messages.pop();
      for (const message of messages) expect(() => parseSSEMessage(message)).not.toThrow();
      if (name === 'event-after-completed') expect(protocolErrors[0]?.message).toContain('after run.completed');
      else expect(() => parseSSEMessage(last ?? { data: '' })).toThrow(ProtocolError);
      expect(protocolErrors[0]?.seq).toBe(Number(last?.id));
    },
  );

  it('names the seq and field of a malformed event', async () => {
    const { proxy, protocolErrors } = await setup((_request, res) => {
      sseHead(res);
      res.end(stepsToSSE(getScenario('malformed-event').steps));
    });
    await readSSEResponse(await startRun(proxy.url));
    expect(protocolErrors[0]?.eventType).toBe('tool.started');
    expect(protocolErrors[0]?.path).toEqual(['callId']);
  });

  it('stops reading the upstream when the browser goes away', async () => {
    let upstreamClosed = false;
    const { proxy } = await setup((_request, res) => {
      sseHead(res);
      res.write(stepsToSSE(getScenario('completed-text').steps.slice(0, 3)));
      res.on('close', () => (upstreamClosed = true));
    });
    const abort = new AbortController();
    const response = await startRun(proxy.url, 'text/event-stream', { signal: abort.signal });
    await response.body?.getReader().read();
    abort.abort();
    for (let i = 0; i < 50 && !upstreamClosed; i += 1) await sleep(20);
    expect(upstreamClosed).toBe(true);
  });
});

describe('createKestrelProxy: JSON route, result, cancel', () => {
  it.each(['completed-payload', 'failed-retryable', 'cancelled', 'waiting-choice-single', 'waiting-unknown-kind'])(
    'answers the JSON route of %s with its one terminal event, untouched',
    async (name) => {
      const terminal = terminalOf(name);
      const { proxy, upstream } = await setup((_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(terminal));
      });
      const response = await startRun(proxy.url, 'application/json');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(terminal);
      expect(upstream.requests[0]?.headers.accept).toBe('application/json');
    },
  );

  it('answers 502 naming the field when the terminal event breaks the protocol', async () => {
    const { proxy, protocolErrors } = await setup((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(terminalOf('completed-without-text')));
    });
    const response = await startRun(proxy.url, 'application/json');
    expect(response.status).toBe(502);
    const body = requestErrorBodySchema.parse(await response.json());
    expect(body.error.code).toBe('upstream_protocol_error');
    expect(body.error.message).toContain('output.assistantText');
    expect(protocolErrors).toHaveLength(1);
  });

  it.each([
    ['the JSON route', 'POST', '/v1/sessions/new/runs'],
    ['the result', 'GET', '/v1/runs/r1/result'],
  ])(
    'answers 502 upstream_dropped, never a rejected handler, when the upstream drops during %s',
    async (_what, method, path) => {
      const upstream = await startScriptedUpstream(async (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"type":"run.completed","runId":"r1",');
        await sleep(20);
        res.destroy();
      });
      track(upstream);
      // Called as a web-standard handler (Next.js, Hono): a rejection there is the host's generic 500, not the protocol's error body.
      const proxy = createKestrelProxy({ upstream: upstream.url });
      const response = await proxy(
        new Request(`http://app.test${path}`, {
          method,
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: JSON.stringify({ input: 'Hi' }) } : {}),
        }),
      );
      expect(response.status).toBe(502);
      const body = requestErrorBodySchema.parse(await response.json());
      expect(body.error.code).toBe('upstream_dropped');
    },
  );

  it('forwards the settled result, and the 409 of a run still going', async () => {
    const terminal = terminalOf('waiting-form');
    const { proxy } = await setup((request, res) => {
      if (request.url.includes('run_waiting_form')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(terminal));
      } else {
        res.writeHead(409, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'run_not_settled', message: 'The run is still streaming' } }));
      }
    });
    expect(await (await fetch(`${proxy.url}/v1/runs/run_waiting_form/result`)).json()).toEqual(terminal);
    const pending = await fetch(`${proxy.url}/v1/runs/run_live/result`);
    expect(pending.status).toBe(409);
    expect(await pending.json()).toEqual({ error: { code: 'run_not_settled', message: 'The run is still streaming' } });
  });

  it('keeps encoded ids encoded on the way up', async () => {
    const { proxy, upstream } = await setup((_request, res) => {
      res.writeHead(202);
      res.end();
    });
    await fetch(`${proxy.url}/v1/runs/run%2F1%20a/cancel`, { method: 'POST' });
    expect(upstream.requests[0]?.url).toBe('/v1/runs/run%2F1%20a/cancel');
  });

  it('forwards a cancel and its 202', async () => {
    const { proxy, upstream } = await setup((_request, res) => {
      res.writeHead(202);
      res.end();
    });
    const response = await fetch(`${proxy.url}/v1/runs/run_cancelled/cancel`, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(upstream.requests[0]).toMatchObject({ method: 'POST', url: '/v1/runs/run_cancelled/cancel' });
  });

  it('forwards a checked answer to the interaction', async () => {
    const scenario = getScenario('waiting-choice-single');
    const { proxy, upstream } = await setup((_request, res) => {
      sseHead(res);
      res.end(stepsToSSE(scenario.continuation?.steps ?? []));
    });
    const response = await fetch(`${proxy.url}/v1/sessions/ses_root/interactions/int_choice_single`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(scenario.continuation?.answer),
    });
    const { messages } = await readSSEResponse(response);
    expect(messages.at(-1)?.event).toBe('run.completed');
    expect(upstream.requests[0]?.url).toBe('/v1/sessions/ses_root/interactions/int_choice_single');
    expect(JSON.parse(upstream.requests[0]?.body ?? '')).toEqual(scenario.continuation?.answer);
  });
});

describe('createKestrelProxy: request errors', () => {
  it.each([
    [404, { error: { code: 'session_not_found', message: 'No session "ses_gone"' } }],
    [401, { error: { code: 'unauthorized', message: 'Bad token' } }],
    [503, { error: { code: 'overloaded', message: 'Try again in a minute' } }],
  ])('passes an upstream %i error body through', async (status, body) => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const response = await startRun(proxy.url);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
  });

  it("gives an upstream error without the protocol's error body one, keeping the status", async () => {
    const { proxy } = await setup((_request, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>Internal Server Error</h1>');
    });
    const response = await startRun(proxy.url);
    expect(response.status).toBe(500);
    expect(requestErrorBodySchema.parse(await response.json()).error.code).toBe('upstream_error');
  });

  it('refuses bad bodies before they leave, naming the field', async () => {
    const { proxy, upstream } = await setup((_request, res) => res.end());
    const notJson = await postJson(`${proxy.url}/v1/sessions/new/runs`, '{input:');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe('invalid_json');
    const badAnswer = await postJson(
      `${proxy.url}/v1/sessions/s/interactions/i`,
      JSON.stringify({ kind: 'text', text: '' }),
    );
    expect(badAnswer.status).toBe(400);
    expect((await badAnswer.json()).error.message).toContain('text');
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 404 and 405 for what is not a Kestrel resource', async () => {
    const { proxy } = await setup((_request, res) => res.end());
    const unknown = await fetch(`${proxy.url}/v1/everything`);
    expect(unknown.status).toBe(404);
    expect(requestErrorBodySchema.safeParse(await unknown.json()).success).toBe(true);
    const wrongMethod = await fetch(`${proxy.url}/v1/runs/r/cancel`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  const appFetch: typeof fetch = (input, init) => fetch(input, init);
  it.each<[string, Partial<KestrelProxyOptions>]>([
    ['served natively by createNodeListener', {}],
    ['on the web path (an app fetch)', { fetch: appFetch }],
  ])(
    "answers 502 when the upstream cannot be reached, %s, never naming Kestrel's address to the browser",
    async (_path, extra) => {
      const gone = await listenOnLoopback(() => undefined);
      await gone.close();
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const proxy = track(
        await listenOnLoopback(createNodeListener(createKestrelProxy({ upstream: gone.url, ...extra }))),
      );
      const response = await startRun(proxy.url);
      expect(response.status).toBe(502);
      const body = await response.json();
      expect(body.error).toEqual({ code: 'upstream_unreachable', message: 'Kestrel could not be reached' });
      expect(JSON.stringify(body)).not.toContain(new URL(gone.url).port);
      // The server's own log keeps the reason.
      expect(errors.mock.calls.flat().join(' ')).toMatch(/Kestrel could not be reached: /);
      errors.mockRestore();
    },
  );

  it('serves below a base path and keeps an upstream path prefix', async () => {
    const { proxy, upstream } = await setup(
      (_request, res) => {
        res.writeHead(202);
        res.end();
      },
      { basePath: '/api/kestrel/' },
    );
    const response = await fetch(`${proxy.url}/api/kestrel/v1/runs/r1/cancel`, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(upstream.requests[0]?.url).toBe('/v1/runs/r1/cancel');
    expect((await fetch(`${proxy.url}/v1/runs/r1/cancel`, { method: 'POST' })).status).toBe(404);
  });
});
