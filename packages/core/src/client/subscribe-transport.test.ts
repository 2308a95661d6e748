import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';
import type { TransportEvent } from './transport-event.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

describe('handle.subscribeTransport', () => {
  it('tells a listener the attempt first, then each request, response and message; the same function once', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const heard: TransportEvent['type'][] = [];
    const listener = (event: TransportEvent) => heard.push(event.type);
    handle.subscribeTransport(listener);
    handle.subscribeTransport(listener);
    await handle.result;
    expect(heard.slice(0, 3)).toEqual(['attempt', 'request', 'response']);
    expect(heard.filter((type) => type === 'message')).toHaveLength(handle.getState().events.length);
    expect(heard.filter((type) => type === 'attempt')).toHaveLength(1);
  });

  it('a listener that throws does not stop the run, nor the other listeners; its error surfaces uncaught', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      const scenario = getScenario('completed-text');
      const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
      handle.subscribeTransport(() => {
        throw new Error('a broken debugging tool');
      });
      const heard: string[] = [];
      handle.subscribeTransport((event) => heard.push(event.type));
      await handle.result;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(handle.getState().phase).toBe('settled');
      expect(heard.filter((type) => type === 'message')).toHaveLength(handle.getState().events.length);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((error) => (error as Error).message === 'a broken debugging tool')).toBe(true);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('reports a request that got no response, with the error, and stops reporting once unsubscribed', async () => {
    const handle = testClient(kestrel, {
      fetch: () => Promise.reject(new TypeError('network down')),
    }).start({ input: 'Hello' });
    const heard: TransportEvent[] = [];
    const stop = handle.subscribeTransport((event) => heard.push(event));
    await handle.result.catch(() => undefined);
    expect(heard.map((event) => event.type)).toEqual(['attempt', 'request', 'request-failed', 'error']);
    expect(heard[2]).toMatchObject({ method: 'POST', error: { kind: 'transport' } });
    stop();
    const after = heard.length;
    handle.detach();
    expect(heard).toHaveLength(after);
  });
});
