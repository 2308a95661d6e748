import { decodeSSE, parseSSEMessage, type RunEvent, type SSEMessage } from '@kestrel/core';
import { createMockKestrel, type MockKestrel, type MockKestrelOptions } from '@kestrel/server/mock';
import { afterEach } from 'vitest';
import { getScenario } from '../scenarios.js';
import { scenarioEvents } from '../scenario.js';
import type { WireEvent } from '../event-factory.js';

/*
 * Test helpers for the scenario handler, served for real: a mock Kestrel on 127.0.0.1 and node's fetch.
 * Short keep-alives and stalls keep every test fast.
 */

const servers: MockKestrel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

export async function startKestrel(options: MockKestrelOptions = {}): Promise<MockKestrel> {
  const kestrel = await createMockKestrel({ keepAliveMs: 60_000, stallMs: 40, ...options });
  servers.push(kestrel);
  return kestrel;
}

export const SSE = 'text/event-stream';
export const JSON_TYPE = 'application/json';

export function startRun(
  kestrel: { url: string },
  scenario: string | undefined,
  init: {
    accept?: string;
    headers?: Record<string, string>;
    body?: unknown;
    sessionId?: string;
    fetch?: typeof fetch;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: init.accept ?? SSE, 'content-type': JSON_TYPE, ...init.headers };
  if (scenario !== undefined) headers['x-kestrel-scenario'] = scenario;
  return (init.fetch ?? fetch)(`${kestrel.url}/v1/sessions/${init.sessionId ?? 'new'}/runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify(init.body ?? { input: 'hello' }),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
}

export function resume(
  kestrel: { url: string },
  runId: string,
  lastEventId?: number | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${kestrel.url}/v1/runs/${runId}/events`, {
    headers: {
      accept: SSE,
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
      ...headers,
    },
  });
}

export function answer(
  kestrel: { url: string },
  sessionId: string,
  interactionId: string,
  body: unknown,
  accept = SSE,
): Promise<Response> {
  return fetch(`${kestrel.url}/v1/sessions/${sessionId}/interactions/${interactionId}`, {
    method: 'POST',
    headers: { accept, 'content-type': JSON_TYPE },
    body: JSON.stringify(body),
  });
}

/** What one SSE connection delivered, in order, and how it ended. */
export interface StreamRead {
  readonly items: readonly ({ kind: 'message'; message: SSEMessage } | { kind: 'comment'; text: string })[];
  readonly messages: readonly SSEMessage[];
  /** `clean`: the body ended; `dropped`: reading it failed (a cut connection). */
  readonly ending: 'clean' | 'dropped';
  readonly error: unknown;
}

export async function readStream(response: Response, until?: (message: SSEMessage) => boolean): Promise<StreamRead> {
  if (response.body === null) throw new Error('no body');
  const items: StreamRead['items'][number][] = [];
  const messages: SSEMessage[] = [];
  try {
    for await (const message of decodeSSE(response.body, {
      onComment: (text) => items.push({ kind: 'comment', text }),
    })) {
      items.push({ kind: 'message', message });
      messages.push(message);
      if (until?.(message)) break;
    }
    return { items, messages, ending: 'clean', error: undefined };
  } catch (error) {
    return { items, messages, ending: 'dropped', error };
  }
}

export function parseAll(messages: readonly SSEMessage[]): RunEvent[] {
  return messages.map((message) => parseSSEMessage(message));
}

export const seqsOf = (messages: readonly SSEMessage[]) => messages.map((message) => Number(message.id));

/** The scenario's events (all attempts' steps given) with a run's ids, as the mock must send them. */
export function expectedEvents(
  name: string,
  runId: string,
  sessionId: string,
  which: 'steps' | 'continuation' = 'steps',
): WireEvent[] {
  const scenario = getScenario(name);
  const steps = which === 'steps' ? scenario.steps : (scenario.continuation?.steps ?? []);
  return scenarioEvents(steps).map((event) => ({
    ...event,
    runId,
    sessionId:
      event.sessionId === scenario.sessionId ? sessionId : `${String(event.sessionId)}_${runId.split('_').at(-1)}`,
  }));
}

export const dataOf = (messages: readonly SSEMessage[]) =>
  messages.map((message) => JSON.parse(message.data) as WireEvent);

export async function errorBody(response: Response): Promise<{ code: string; message: string; issues?: unknown[] }> {
  const body = (await response.json()) as { error: { code: string; message: string; issues?: unknown[] } };
  return body.error;
}

export const runIdOf = (response: Response) => response.headers.get('x-kestrel-run-id') ?? '';
export const sessionIdOf = (response: Response) => response.headers.get('x-kestrel-session-id') ?? '';
