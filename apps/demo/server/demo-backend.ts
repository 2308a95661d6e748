import { createKestrelProxy, type FetchHandler } from '@kestrel/server';
import { createScenarioHandler, scenarios } from '@kestrel/testing';

/** How the demo's mock keeps a live stream talking; the browser's heartbeat timeout matches (see `src/client.ts`). */
export const MOCK_KEEP_ALIVE_MS = 1_000;

/** A seeded session of the mock with 45 settled runs, for paging through history. */
export const DEMO_LONG_SESSION = 'demo-long';

export interface DemoBackend {
  readonly handler: FetchHandler;
  /** One line for the terminal: what answers `/v1`. */
  readonly description: string;
  close(): void;
}

/**
 * What answers the browser's `/v1/...` requests. With `KESTREL_URL` set, a real Kestrel behind the
 * backend-for-frontend proxy of `@kestrel/server` (credentials from `KESTREL_API_KEY`, when set); otherwise the
 * mock Kestrel playing the shared scenarios at about 30 ms per event.
 */
export function createDemoBackend(env: NodeJS.ProcessEnv = process.env): DemoBackend {
  const upstream = env.KESTREL_URL;
  if (upstream !== undefined && upstream !== '') {
    const apiKey = env.KESTREL_API_KEY;
    return {
      handler: createKestrelProxy({ upstream, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} }),
      description: `Kestrel: /v1 is proxied to ${upstream}${apiKey ? ' (with KESTREL_API_KEY)' : ''}`,
      close: () => undefined,
    };
  }
  // The stall scenario goes silent for longer than the browser's heartbeat timeout, so the resume is visible.
  // `demo-long` is a conversation with history to page through: open `/?session=demo-long`.
  const mock = createScenarioHandler({
    eventDelayMs: 30,
    keepAliveMs: MOCK_KEEP_ALIVE_MS,
    stallMs: 8_000,
    seed: [{ sessionId: DEMO_LONG_SESSION, runs: 45, scenarios: ['completed-text', 'completed-payload'] }],
  });
  return {
    handler: mock,
    description: `Kestrel: mock on /v1 playing ${scenarios.length} shared scenarios (set KESTREL_URL to use a real one)`,
    close: () => mock.close(),
  };
}

/** Whether the demo talks to the mock; the browser bundle is told through a Vite `define`. */
export const usesMock = (env: NodeJS.ProcessEnv = process.env) => !env.KESTREL_URL;
