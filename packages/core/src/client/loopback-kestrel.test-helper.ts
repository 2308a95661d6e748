import { scenarioActions, type Scenario } from '@kestrel/testing';
import type { PayloadSchema } from '../run/payload.js';
import { reduceRun } from '../run/reduce-run.js';
import { createInitialRunState, type RunState } from '../run/run-state.js';
import { expect } from 'vitest';
import {
  startLoopbackKestrel,
  type ClientSetup,
  type LoopbackKestrel,
} from '../../../server/src/loopback-kestrel.test-helper.js';
import { RunClientError } from './run-client-error.js';
import type { RunClient } from './types.js';

/*
 * Test support for the run client: the shared loopback Kestrel (server/src/loopback-kestrel.test-helper.ts) and
 * a client with the short timings these tests use.
 */

export { startLoopbackKestrel };
export type { LoopbackKestrel };

/** Short heartbeat, backoff and timeouts (a little longer than the React tests'), jittered backoff. */
export function testClient(kestrel: LoopbackKestrel, options: ClientSetup = {}): RunClient {
  return kestrel.client({
    reconnect: { attempts: 3, baseDelayMs: 5, maxDelayMs: 40, jitter: 0.5 },
    heartbeatTimeoutMs: 400,
    requestTimeoutMs: 2_000,
    ...options,
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
    events: state.events
      .toArray()
      .map((event) => `${event.seq}:${event.type === 'unknown' ? event.unknownType : event.type}`),
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
