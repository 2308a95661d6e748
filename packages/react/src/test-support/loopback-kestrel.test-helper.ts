import { createRunClient, type RunClient, type RunClientOptions } from '@kestrel/core';
import { createMockKestrel, type MockKestrel, type MockKestrelOptions } from '@kestrel/server/mock';
import { recordingFetch, type RecordedRequest } from '@kestrel/testing';

export interface ClientSetup extends Partial<RunClientOptions> {
  /** Sent as `x-kestrel-scenario` on every request. */
  readonly scenario?: string;
  /** `x-kestrel-delay`: pause before each event, in ms, so a test can act while the run streams. */
  readonly delayMs?: number;
  /** `x-kestrel-fault`, read at every request. */
  readonly fault?: () => string | undefined;
}

export interface LoopbackKestrel {
  readonly mock: MockKestrel;
  /** Every request any client made here sent, in order. */
  readonly requests: RecordedRequest[];
  /** A real run client for the mock, with short timings so tests stay fast. */
  client(setup?: ClientSetup): RunClient;
  /** Requests matching a method and a path pattern. */
  sent(method: string, path: RegExp): RecordedRequest[];
  close(): Promise<void>;
}

/** The shared mock Kestrel on 127.0.0.1, with request recording: what React tests run against. */
export async function startLoopbackKestrel(options: MockKestrelOptions = {}): Promise<LoopbackKestrel> {
  const mock = await createMockKestrel({ keepAliveMs: 50, stallMs: 400, ...options });
  const recorder = recordingFetch();
  return {
    mock,
    requests: recorder.requests,
    client({ scenario, delayMs, fault, ...rest } = {}) {
      return createRunClient({
        baseUrl: mock.url,
        fetch: recorder.fetch,
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
    sent: (method, path) => recorder.requests.filter((request) => request.method === method && path.test(request.path)),
    close: () => mock.close(),
  };
}
