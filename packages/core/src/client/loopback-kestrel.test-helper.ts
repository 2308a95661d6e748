import { createNodeListener, listenOnLoopback } from '@kestrel/server/node';
import { createScenarioHandler, type Scenario } from '@kestrel/testing';
import { scenarioActions } from '@kestrel/testing';
import type { PayloadSchema } from '../run/payload.js';
import { reduceRun } from '../run/reduce-run.js';
import { createInitialRunState, type RunState } from '../run/run-state.js';
import { expect } from 'vitest';
import { createRunClient } from './create-run-client.js';
import { RunClientError } from './run-client-error.js';
import type { RunClient, RunClientOptions } from './types.js';

/*
 * Test support for the run client: what `createMockKestrel` serves (the shared scenario handler on node:http,
 * 127.0.0.1), plus a record of every request so tests can check headers, bodies and that nothing is sent twice.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface LoopbackKestrel {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Event streams the server is writing right now. */
  readonly openStreams: number;
  /** Stops the server and cuts every open connection. */
  close(): Promise<void>;
}

export interface LoopbackKestrelOptions extends NonNullable<Parameters<typeof createScenarioHandler>[0]> {
  /** Answers a request instead of the mock when it returns a Response (a server that differs on one route). */
  readonly intercept?: (request: Request) => Response | undefined;
}

export async function startLoopbackKestrel(options: LoopbackKestrelOptions = {}): Promise<LoopbackKestrel> {
  const { intercept, ...handlerOptions } = options;
  const handler = createScenarioHandler({ keepAliveMs: 25, ...handlerOptions });
  const requests: RecordedRequest[] = [];
  const loopback = await listenOnLoopback(
    createNodeListener(async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : '';
      requests.push({ method: request.method, path: new URL(request.url).pathname, headers: Object.fromEntries(request.headers), body });
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
    close: () => {
      handler.close();
      closing ??= loopback.close();
      return closing;
    },
  };
}

export interface TestClientOptions extends Partial<RunClientOptions> {
  readonly scenario?: string;
  /** `x-kestrel-fault`, read at every request so a test can aim a fault at one call. */
  readonly fault?: () => string | undefined;
  /** `x-kestrel-delay`: pause before each event, in ms. */
  readonly delayMs?: number;
}

/** Short heartbeat, backoff and timeouts, so every test finishes in well under a second or two. */
export function testClient(kestrel: LoopbackKestrel, options: TestClientOptions = {}): RunClient {
  const { scenario, fault, delayMs, ...rest } = options;
  return createRunClient({
    baseUrl: kestrel.baseUrl,
    reconnect: { attempts: 3, baseDelayMs: 5, maxDelayMs: 40, jitter: 0.5 },
    heartbeatTimeoutMs: 400,
    requestTimeoutMs: 2_000,
    headers: () => {
      const headers: Record<string, string> = {};
      if (scenario !== undefined) headers['x-kestrel-scenario'] = scenario;
      const current = fault?.();
      if (current !== undefined) headers['x-kestrel-fault'] = current;
      if (delayMs !== undefined) headers['x-kestrel-delay'] = String(delayMs);
      return headers;
    },
    ...rest,
  });
}

/** What a person sees of a run, without the ids the server assigns. */
export function project(state: RunState) {
  return {
    phase: state.phase,
    status: state.status,
    finishReason: state.finishReason,
    draftText: state.draftText,
    reasoning: state.reasoning,
    assistantText: state.output?.assistantText ?? null,
    payload: state.payload?.status ?? null,
    events: state.events.toArray().map((event) => `${event.seq}:${event.type === 'unknown' ? event.unknownType : event.type}`),
    tools: state.tools.map((tool) => `${tool.callId}:${tool.name}:${tool.status}`),
    logs: state.logs.toArray().map((log) => `${log.seq}:${log.level}:${log.message}`),
    progress: state.progress,
    errorKind: state.error?.kind ?? null,
    errorSeq: state.error?.kind === 'protocol' ? state.error.seq : null,
  };
}

/** The state an unbroken, careful reading of the scenario produces (the reference the client must match). */
export function referenceState(scenario: Scenario, options: { payloadSchema?: PayloadSchema } = {}): RunState {
  let state: RunState = createInitialRunState(options);
  for (const action of scenarioActions(scenario.steps)) state = reduceRun(state, action);
  return state;
}

/** The `RunClientError` a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<RunClientError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RunClientError);
  return error as RunClientError;
}
