import { invoiceSchema, scenarioActions, type Scenario, type ScenarioExpectation } from '@kestrel/testing';
import { expect } from 'vitest';
import type { RunAction } from './run-action.js';
import { reduceRun } from './reduce-run.js';
import { createInitialRunState, type RunState } from './run-state.js';

/*
 * Test helpers shared by the reducer tests (not exported from the package): play a shared scenario through
 * reduceRun the way a careful client would, and compare the result with the scenario's expected reading.
 */

export function initialFor(scenario: Scenario): RunState {
  return scenario.usesInvoiceSchema
    ? createInitialRunState<unknown>({ payloadSchema: invoiceSchema })
    : createInitialRunState();
}

/** Every state the reducer produced, the initial one first; each is checked with {@link checkPhaseFields}. */
export function reduceAll(state: RunState, actions: readonly RunAction[]): RunState[] {
  const states = [state];
  for (const action of actions) {
    const next = reduceRun(states.at(-1) ?? state, action);
    checkPhaseFields(next);
    states.push(next);
  }
  return states;
}

export function play(scenario: Scenario): RunState {
  return reduceAll(initialFor(scenario), scenarioActions(scenario.steps)).at(-1) as RunState;
}

/** The actions of the attempt that answers a WAITING output: `respond`, then the new stream. */
export function continuationActions(scenario: Scenario): RunAction[] {
  if (scenario.continuation === undefined) throw new Error(`${scenario.name} has no continuation`);
  const stream = scenarioActions(scenario.continuation.steps).filter(
    (action) => action.type !== 'client/start-requested',
  );
  return [{ type: 'client/start-requested', mode: 'respond' }, ...stream];
}

/** Checks each reading the scenario states (fields it leaves out are not checked). */
export function expectReading(state: RunState, expected: ScenarioExpectation): void {
  expect(state.phase).toBe(expected.phase);
  if (expected.status !== undefined) expect(state.status).toBe(expected.status);
  if (expected.errorKind !== undefined) expect(state.error?.kind).toBe(expected.errorKind);
  if (expected.finishReason !== undefined) expect(state.finishReason).toBe(expected.finishReason);
  if (expected.payload !== undefined) expect(state.payload?.status).toBe(expected.payload);
  if (expected.assistantText !== undefined) expect(state.output?.assistantText ?? null).toBe(expected.assistantText);
  if (expected.draftText !== undefined) expect(state.draftText).toBe(expected.draftText);
  if (expected.eventCount !== undefined) expect(state.events.length).toBe(expected.eventCount);
  if (expected.phase === 'settled') {
    expect(state.error).toBeNull();
    expect(state.result?.output).toBe(state.output);
    expect(state.status).toBe(state.output?.status);
  } else {
    expect(state.error).not.toBeNull();
  }
}

/**
 * What `RunStateByPhase` promises the compiler, checked at run time: the reducer builds some states with casts
 * (where `applies` or `isListening` already ruled the other phases out), so the types rest on this.
 */
export function checkPhaseFields(state: RunState): void {
  const { result, output, status, payload, error, reconnect } = state;
  const outcome = { result, output, status, payload };
  switch (state.phase) {
    case 'idle':
    case 'connecting':
    case 'streaming':
    case 'detached':
    case 'reconnecting':
      expect(outcome).toEqual({ result: null, output: null, status: null, payload: null });
      expect(error).toBeNull();
      if (state.phase === 'reconnecting') expect(reconnect).toMatchObject({ attempt: expect.any(Number) });
      else expect(reconnect).toBeNull();
      break;
    case 'settled':
      expect(result).not.toBeNull();
      expect(output?.status).toBe(status);
      // Only COMPLETED has a payload, and it always has one.
      expect(payload === null).toBe(status !== 'COMPLETED');
      expect({ error, reconnect }).toEqual({ error: null, reconnect: null });
      break;
    case 'error':
      expect(error).not.toBeNull();
      expect(reconnect).toBeNull();
      // The outcome is kept only when a protocol error followed run.completed; otherwise it is all null.
      if (result === null) expect(outcome).toEqual({ result: null, output: null, status: null, payload: null });
      else expect(error?.kind).toBe('protocol');
      break;
    default:
      state satisfies never;
  }
}
