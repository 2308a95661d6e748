import { createNodeListener, listenOnLoopback } from '@kestrel/server/node';
import { createScenarioHandler } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { createDemoBackend, usesMock } from './demo-backend.js';

const startRun = (scenario: string) =>
  new Request('http://127.0.0.1/v1/sessions/new/runs', {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ input: `[scenario:${scenario}] Hello` }),
  });

describe('the demo backend', () => {
  it('plays the shared scenarios with the embedded mock when KESTREL_URL is not set', async () => {
    const backend = createDemoBackend({});
    try {
      expect(usesMock({})).toBe(true);
      const response = await backend.handler(startRun('failed-no-text'));
      expect((await response.json()).output.status).toBe('FAILED');
    } finally {
      backend.close();
    }
  });

  it('proxies /v1 to KESTREL_URL with KESTREL_API_KEY as credentials, no code change', async () => {
    // A Kestrel on 127.0.0.1 that notes the credentials it was given.
    const kestrel = createScenarioHandler();
    const credentials: (string | null)[] = [];
    const upstream = await listenOnLoopback(
      createNodeListener((request) => {
        credentials.push(request.headers.get('authorization'));
        return kestrel(request);
      }),
    );
    try {
      const env = { KESTREL_URL: upstream.url, KESTREL_API_KEY: 'k_123' };
      expect(usesMock(env)).toBe(false);
      const backend = createDemoBackend(env);
      expect(backend.description).toContain(upstream.url);
      const response = await backend.handler(startRun('cancelled'));
      expect(response.status).toBe(200);
      expect((await response.json()).output.status).toBe('CANCELLED');
      expect(credentials).toEqual(['Bearer k_123']);
    } finally {
      kestrel.close();
      await upstream.close();
    }
  });

  it('lets the browser on the demo origin through the proxy, and refuses another site (KESTREL_URL mode)', async () => {
    const kestrel = createScenarioHandler();
    const upstream = await listenOnLoopback(createNodeListener(kestrel));
    const env = { KESTREL_URL: upstream.url };
    const backend = createDemoBackend(env);
    // Served as the dev server and the preview serve it: the request URL comes from the Host header.
    const demo = await listenOnLoopback(createNodeListener(backend.handler));
    const post = (origin: string) =>
      fetch(`${demo.url}/v1/sessions/new/runs`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          origin,
          'sec-fetch-site': 'same-origin',
        },
        body: JSON.stringify({ input: '[scenario:completed-text] Hello' }),
      });
    try {
      const same = await post(demo.url);
      expect(same.status).toBe(200);
      expect((await same.json()).output.status).toBe('COMPLETED');
      expect((await post('https://evil.example')).status).toBe(403);
    } finally {
      kestrel.close();
      await demo.close();
      await upstream.close();
    }
  });
});
