import { createRunClient, isRunClientError, type RunClient } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createMockKestrel, type MockKestrel } from './mock-kestrel.js';
import { createNodeListener } from './node-listener.js';

/*
 * The browser's run client → the proxy → the mock Kestrel, all on 127.0.0.1: the whole backend-for-frontend
 * path with real sockets, real drops and real resumes.
 */
let kestrel: MockKestrel;
let proxy: LoopbackServer;
const seenByUpstream: Headers[] = [];

beforeAll(async () => {
  kestrel = await createMockKestrel({ keepAliveMs: 50, stallMs: 20 });
  const upstreamFetch: typeof fetch = (input, init) => {
    seenByUpstream.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  proxy = await listenOnLoopback(
    createNodeListener(
      createKestrelProxy({
        upstream: kestrel.url,
        basePath: '/api/kestrel',
        headers: { authorization: 'Bearer app-secret' },
        forwardHeaders: ['x-kestrel-scenario', 'x-kestrel-fault'],
        fetch: upstreamFetch,
        onProtocolError: () => undefined,
      }),
    ),
  );
});
afterAll(async () => {
  await proxy?.close();
  await kestrel?.close();
});

const clientFor = (scenario: string, extra: Record<string, string> = {}): RunClient =>
  createRunClient({
    baseUrl: `${proxy.url}/api/kestrel`,
    headers: { 'x-kestrel-scenario': scenario, ...extra },
    reconnect: { baseDelayMs: 10, maxDelayMs: 50 },
    heartbeatTimeoutMs: 2_000,
  });

describe('run client → createKestrelProxy → mock Kestrel', () => {
  it.each(['completed-payload', 'failed-retryable', 'cancelled', 'waiting-form'])(
    'settles %s as Kestrel said',
    async (name) => {
      const scenario = getScenario(name);
      const handle = clientFor(name).start({ input: scenario.input });
      const event = await handle.result;
      expect(event.output.status).toBe(scenario.expected.status);
      expect(handle.getState().finishReason).toBe(scenario.expected.finishReason);
      expect(seenByUpstream.at(-1)?.get('authorization')).toBe('Bearer app-secret');
    },
  );

  it('answers a WAITING interaction through the proxy and follows the next attempt', async () => {
    const scenario = getScenario('waiting-approval');
    const handle = clientFor(scenario.name).start({ input: scenario.input });
    await handle.result;
    const next = await handle.respond(scenario.continuation?.answer ?? { kind: 'approval', approved: true });
    const event = await next.result;
    expect(event.output.status).toBe('COMPLETED');
    expect(event.output.assistantText).toBe(scenario.continuation?.expected.assistantText);
  });

  it.each(['dropped-mid-stream', 'duplicate-after-resume'])(
    'resumes %s through the proxy with Last-Event-ID, without duplicated text',
    async (name) => {
      const scenario = getScenario(name);
      const before = seenByUpstream.length;
      const handle = clientFor(name).start({ input: scenario.input });
      const event = await handle.result;
      expect(event.output.status).toBe('COMPLETED');
      expect(handle.getState().draftText).toBe(scenario.expected.assistantText);
      const resumes = seenByUpstream.slice(before).filter((headers) => headers.has('last-event-id'));
      expect(resumes.length).toBeGreaterThan(0);
    },
  );

  it.each([
    ['truncated', 'truncated'],
    ['malformed-event', 'protocol'],
    ['event-name-mismatch', 'protocol'],
    ['completed-without-text', 'protocol'],
  ])('never turns %s into an outcome (%s error in the browser)', async (name, kind) => {
    const scenario = getScenario(name);
    const handle = clientFor(name).start({ input: scenario.input });
    const failure = await handle.result.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isRunClientError(failure) ? failure.kind : failure).toBe(kind);
    expect(handle.getState().phase).toBe('error');
    expect(handle.getState().result).toBeNull();
  });

  it("passes Kestrel's own HTTP errors through with their status and body", async () => {
    const handle = clientFor('completed-text', { 'x-kestrel-fault': 'http-503' }).start({ input: 'Hi' });
    await handle.result.catch(() => undefined);
    const error = handle.getState().error;
    expect(error?.kind).toBe('http');
    expect(error?.kind === 'http' ? [error.status, error.code] : null).toEqual([503, 'injected_fault']);
  });
});
