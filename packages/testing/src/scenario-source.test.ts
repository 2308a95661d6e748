import { describe, expect, it } from 'vitest';
import { createScenarioSource } from './scenario-source.js';
import { getScenario, scenarios } from './scenarios.js';
import { invoiceSchema } from './invoice.js';

describe('createScenarioSource', () => {
  it('plays every scenario to the state its expectation describes', () => {
    for (const scenario of scenarios) {
      const state = createScenarioSource(scenario, {
        payloadSchema: scenario.usesInvoiceSchema ? invoiceSchema : undefined,
      }).getState();
      expect(state.phase, scenario.name).toBe(scenario.expected.phase);
      if (scenario.expected.status !== undefined) expect(state.status, scenario.name).toBe(scenario.expected.status);
      if (scenario.expected.errorKind !== undefined)
        expect(state.error?.kind, scenario.name).toBe(scenario.expected.errorKind);
      if (scenario.expected.payload !== undefined)
        expect(state.payload?.status, scenario.name).toBe(scenario.expected.payload);
    }
  });

  it('freezes a run mid-stream with upTo and steps it on, notifying subscribers', () => {
    const source = createScenarioSource(getScenario('completed-text'), { upTo: 8 });
    expect(source.getState().phase).toBe('streaming');
    const draft = source.getState().draftText;
    expect(draft.length).toBeGreaterThan(0);
    let calls = 0;
    const unsubscribe = source.subscribe(() => (calls += 1));
    source.step(2);
    expect(calls).toBe(2);
    expect(source.getState().draftText.startsWith(draft)).toBe(true);
    unsubscribe();
    while (source.step()) {
      // play to the end
    }
    expect(calls).toBe(2);
    expect(source.getState().status).toBe('COMPLETED');
  });

  it('stops at the first state `until` accepts, and applies `then` after', () => {
    const reconnecting = createScenarioSource(getScenario('dropped-mid-stream'), {
      until: (s) => s.phase === 'reconnecting',
    });
    expect(reconnecting.getState().reconnect?.reason).toBe('connection dropped');
    const detached = createScenarioSource(getScenario('completed-text'), {
      upTo: 8,
      then: [{ type: 'client/detached' }],
    });
    expect(detached.getState().phase).toBe('detached');
  });

  it('checks the payload against the schema it is given', () => {
    const state = createScenarioSource(getScenario('completed-invalid-payload'), {
      payloadSchema: invoiceSchema,
    }).getState();
    expect(state.payload?.status).toBe('invalid');
  });
});
