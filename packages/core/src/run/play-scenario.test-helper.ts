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

/** Every state the reducer produced, the initial one first. */
export function reduceAll(state: RunState, actions: readonly RunAction[]): RunState[] {
  const states = [state];
  for (const action of actions) states.push(reduceRun(states.at(-1) ?? state, action));
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
