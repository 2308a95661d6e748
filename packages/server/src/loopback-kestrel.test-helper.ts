import { createRunClient, type RunClient, type RunClientOptions } from '@kestrel/core';
import { createScenarioHandler, type RecordedRequest, type ScenarioHandlerOptions } from '@kestrel/testing';
import { listenOnLoopback } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';

/*
 * The one loopback Kestrel the client and React tests run against: what `createMockKestrel` serves (the shared
 * scenario handler on node:http, 127.0.0.1), plus a record of every request as the server received it, so tests
 * can check headers and bodies, and that nothing was sent twice (or at all).
 */

export interface LoopbackKestrelOptions extends ScenarioHandlerOptions {
  /** Answers a request instead of the mock when it returns a Response (a server that differs on one route). */
  readonly intercept?: (request: Request) => Response | undefined;
}

/** How `client()` names the scenario and the faults: headers read at every request. */
export interface ClientSetup extends Partial<RunClientOptions> {
  /** `x-kestrel-scenario` on every request. */
  readonly scenario?: string;
  /** `x-kestrel-delay`: pause before each event, in ms, so a test can act while the run streams. */
  readonly delayMs?: number;
  /** `x-kestrel-fault`, read at every request so a test can aim a fault at one call. */
  readonly fault?: () => string | undefined;
}

export interface LoopbackKestrel {
  /** `http://127.0.0.1:<port>`: the client's `baseUrl`. */
  readonly baseUrl: string;
  /** Every request the server received, in order (path with its query). */
  readonly requests: RecordedRequest[];
  /** Event streams the server is writing right now. */
  readonly openStreams: number;
  /** A real run client for this server with short timings, so tests stay fast. */
  client(setup?: ClientSetup): RunClient;
  /** Requests received with this method and a path matching the pattern. */
  sent(method: string, path: RegExp): RecordedRequest[];
  /** Stops the server and cuts every open connection. */
  close(): Promise<void>;
}

export async function startLoopbackKestrel(options: LoopbackKestrelOptions = {}): Promise<LoopbackKestrel> {
  const { intercept, ...handlerOptions } = options;
  const handler = createScenarioHandler({ keepAliveMs: 25, stallMs: 400, ...handlerOptions });
  const requests: RecordedRequest[] = [];
  const loopback = await listenOnLoopback(
    createNodeListener(async (request) => {
      const url = new URL(request.url);
      const body = request.method === 'POST' ? await request.clone().text() : '';
      requests.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body,
      });
      return intercept?.(request) ?? handler(request);
    }),
  );
  let closing: Promise<void> | undefined;
  return {
    baseUrl: loopback.url,
    requests,
    get openStreams() {
      return handler.openStreams;
    },
    client({ scenario, delayMs, fault, ...rest } = {}) {
      return createRunClient({
        baseUrl: loopback.url,
        heartbeatTimeoutMs: 200,
        requestTimeoutMs: 5_000,
        reconnect: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20, jitter: 0 },
        headers: () => {
          const headers: Record<string, string> = {};
          if (scenario !== undefined) headers['x-kestrel-scenario'] = scenario;
          if (delayMs !== undefined) headers['x-kestrel-delay'] = String(delayMs);
          const faults = fault?.();
          if (faults !== undefined) headers['x-kestrel-fault'] = faults;
          return headers;
        },
        ...rest,
      });
    },
    sent: (method, path) => requests.filter((request) => request.method === method && path.test(request.path)),
    close: () => {
      handler.close();
      closing ??= loopback.close();
      return closing;
    },
  };
}
