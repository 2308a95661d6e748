import { createRunClient, type RunClient } from '@kestrel/core';
import { createKestrelProxy, type FetchHandler } from '@kestrel/server';
import { createScenarioFetch, createScenarioHandler } from '@kestrel/testing';

/** What the app's server talks to: the proxy route's handler, and a run client for server components. */
interface KestrelBackend {
  /** Answers `/api/kestrel/v1/...` for the browser: the kit's backend-for-frontend proxy. */
  readonly proxy: FetchHandler;
  /** Reads Kestrel directly from the server (server components, prefetching), with the app's credentials. */
  readonly client: RunClient;
}

/** The mock's address: never resolved, the mock answers in memory through its own `fetch`. */
const MOCK_ORIGIN = 'http://mock-kestrel.invalid';

/**
 * With `KESTREL_URL`, a real Kestrel (`KESTREL_API_KEY`, when set, as its bearer token). Without it, the mock
 * Kestrel playing the shared scenarios: in development, or when `KESTREL_MOCK=1` says so (the e2e test). A
 * production server with neither refuses every request rather than play made-up runs.
 */
function createBackend(env: NodeJS.ProcessEnv): KestrelBackend | { readonly problem: string } {
  // Next gives a route handler `request.url` on its own host name (`http://localhost:<port>`), whatever host the
  // browser used, so the proxy's same-origin check needs the origin browsers really use: APP_ORIGIN (comma-separated).
  const allowedOrigins = (env.APP_ORIGIN ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  const upstream = env.KESTREL_URL;
  if (upstream !== undefined && upstream !== '') {
    const headers: Record<string, string> = env.KESTREL_API_KEY
      ? { authorization: `Bearer ${env.KESTREL_API_KEY}` }
      : {};
    return {
      proxy: createKestrelProxy({ upstream, basePath: '/api/kestrel', headers, allowedOrigins }),
      client: createRunClient({ baseUrl: upstream, headers }),
    };
  }
  if (env.NODE_ENV === 'production' && env.KESTREL_MOCK !== '1') {
    return { problem: 'KESTREL_URL is not set (set KESTREL_MOCK=1 to serve the mock Kestrel from a production build)' };
  }
  const mockFetch = createScenarioFetch({ handler: createScenarioHandler({ eventDelayMs: 30 }) });
  return {
    proxy: createKestrelProxy({ upstream: MOCK_ORIGIN, basePath: '/api/kestrel', fetch: mockFetch, allowedOrigins }),
    client: createRunClient({ baseUrl: MOCK_ORIGIN, fetch: mockFetch }),
  };
}

// One backend per server process: the route handler and the server components are separate bundles (and dev
// reloads modules), but they must share the mock's runs.
const KEY = Symbol.for('kestrel.next-example.backend');
type Holder = { [KEY]?: ReturnType<typeof createBackend> };

function backend(): KestrelBackend {
  const holder = globalThis as Holder;
  const made = (holder[KEY] ??= createBackend(process.env));
  if ('problem' in made) throw new Error(made.problem);
  return made;
}

/** The proxy's handler; a misconfigured server answers 503 with what is missing. */
export const kestrelProxy: FetchHandler = async (request) => {
  let proxy: FetchHandler;
  try {
    proxy = backend().proxy;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Kestrel is not configured';
    return Response.json({ error: { code: 'not_configured', message } }, { status: 503 });
  }
  return proxy(request);
};

/** A run client on the server side of the proxy, for server components. */
export const serverRunClient = (): RunClient => backend().client;
