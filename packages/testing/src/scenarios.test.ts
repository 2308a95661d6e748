import { parseRunEvent } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { createEventFactory } from './event-factory.js';
import { invoiceSchema, sampleInvoice } from './invoice.js';
import { scenarioEvents, type Scenario, type ScenarioStep } from './scenario.js';
import { getScenario, scenarios } from './scenarios.js';

/** The seq of every event a step list sends, raw SSE blocks included (read from their `id:` line). */
function seqsOf(steps: readonly ScenarioStep[]): number[] {
  return steps.flatMap((step) => {
    if (step.kind === 'event') return [step.event.seq];
    if (step.kind === 'raw') return [Number(/^id: (\d+)$/m.exec(step.text)?.[1])];
    return [];
  });
}

const allSteps = (scenario: Scenario) => [...scenario.steps, ...(scenario.continuation?.steps ?? [])];
const byName = scenarios.map((scenario) => [scenario.name, scenario] as const);

describe('the shared scenarios', () => {
  it('have unique names, and getScenario finds each', () => {
    const names = scenarios.map((scenario) => scenario.name);
    expect(new Set(names).size).toBe(names.length);
    for (const scenario of scenarios) expect(getScenario(scenario.name)).toBe(scenario);
  });

  it('getScenario names the known scenarios when asked for an unknown one', () => {
    expect(() => getScenario('no-such-scenario')).toThrow(
      /Unknown scenario "no-such-scenario"\. Known: completed-text, /,
    );
  });

  it('cover every situation the foundation issue lists', () => {
    const names = new Set(scenarios.map((scenario) => scenario.name));
    for (const name of [
      'completed-text',
      'completed-payload',
      'completed-invalid-payload',
      'failed-retryable',
      'failed-no-text',
      'cancelled',
      'waiting-approval',
      'waiting-choice-single',
      'waiting-choice-multiple',
      'waiting-text',
      'waiting-form',
      'waiting-unknown-kind',
      'subagent-turn-end',
      'max-tokens',
      'tool-error',
      'truncated',
      'dropped-mid-stream',
      'malformed-event',
      'duplicate-after-resume',
      'unknown-event-types',
    ]) {
      expect(names).toContain(name);
    }
    const failed = scenarios.filter((scenario) => scenario.expected.status === 'FAILED');
    const retryable = failed.map(
      (scenario) =>
        (scenarioEvents(scenario.steps).at(-1)?.output as { error: { retryable?: boolean } }).error.retryable,
    );
    expect(new Set(retryable)).toEqual(new Set([true, false]));
  });

  it('include COMPLETED runs whose last root turn did not end normally: cut at max-tokens, and a kind newer than the kit', () => {
    const finishOf = (name: string) => {
      const { status, finishReason } = getScenario(name).expected;
      return { status, finishReason };
    };
    expect(finishOf('max-tokens')).toEqual({ status: 'COMPLETED', finishReason: 'max-tokens' });
    expect(finishOf('completed-unknown-finish')).toEqual({ status: 'COMPLETED', finishReason: 'refusal' });
  });

  it.each(byName)('%s: seq rises strictly from 1, across the continuation too', (_name, scenario) => {
    const seqs = seqsOf(allSteps(scenario));
    expect(seqs[0]).toBe(1);
    seqs.slice(1).forEach((seq, index) => expect(seq).toBeGreaterThan(seqs[index] ?? Infinity));
  });

  it.each(byName)(
    '%s: every event belongs to the scenario run, and run.started names its root session',
    (_name, scenario) => {
      for (const event of scenarioEvents(allSteps(scenario))) {
        expect(event.runId).toBe(scenario.runId);
        if (event.type === 'run.started') expect(event.sessionId).toBe(scenario.sessionId);
      }
    },
  );

  it.each(byName)('%s: has a title and a description, and its expected reading fits its phase', (_name, scenario) => {
    expect(scenario.title.length).toBeGreaterThan(0);
    expect(scenario.description.length).toBeGreaterThan(0);
    if (scenario.expected.phase === 'settled') {
      expect(scenario.expected.status).toBeDefined();
      expect(scenario.expected.errorKind).toBeUndefined();
    } else {
      expect(scenario.expected.errorKind).toBeDefined();
    }
  });

  it.each(byName.filter(([, scenario]) => scenario.group !== 'protocol'))(
    '%s: sends only valid events',
    (_name, scenario) => {
      for (const event of scenarioEvents(allSteps(scenario))) expect(() => parseRunEvent(event)).not.toThrow();
    },
  );

  it('protocol scenarios each carry exactly the fault they are named after', () => {
    const invalid = (name: string) =>
      scenarioEvents(getScenario(name).steps).filter((event) => {
        try {
          parseRunEvent(event);
          return false;
        } catch {
          return true;
        }
      });
    expect(invalid('malformed-event').map((event) => event.type)).toEqual(['tool.started']);
    expect(invalid('completed-without-text').map((event) => event.type)).toEqual(['run.completed']);
    expect(invalid('turn-end-without-kind').map((event) => event.type)).toEqual(['turn/end']);
    expect(invalid('event-after-completed')).toEqual([]);
    expect(getScenario('event-name-mismatch').steps.some((step) => step.kind === 'raw')).toBe(true);
  });

  it('WAITING scenarios: answerable kinds have a continuation and an invalid answer, the unknown kind has neither', () => {
    const waiting = scenarios.filter((scenario) => scenario.expected.status === 'WAITING');
    expect(waiting.length).toBe(6);
    for (const scenario of waiting) {
      const answerable = scenario.name !== 'waiting-unknown-kind';
      expect(scenario.continuation !== undefined).toBe(answerable);
      expect(scenario.invalidAnswer !== undefined).toBe(answerable);
    }
  });

  it('the invoice scenarios send a payload that passes (or, on purpose, fails) the invoice schema', () => {
    const payloadOf = (name: string) =>
      (scenarioEvents(getScenario(name).steps).at(-1)?.output as { finalizedPayload: unknown }).finalizedPayload;
    expect(invoiceSchema.safeParse(sampleInvoice).success).toBe(true);
    expect(payloadOf('completed-payload')).toEqual(sampleInvoice);
    expect(invoiceSchema.safeParse(payloadOf('completed-invalid-payload')).success).toBe(false);
    expect(scenarios.filter((scenario) => scenario.usesInvoiceSchema).map((scenario) => scenario.name)).toEqual([
      'completed-payload',
      'completed-invalid-payload',
    ]);
  });
});

describe('createEventFactory', () => {
  it('numbers events from firstSeq and fills the envelope', () => {
    const e = createEventFactory({ runId: 'run_x', sessionId: 'ses_x', firstSeq: 5 });
    expect(e.started(2)).toEqual({ type: 'run.started', runId: 'run_x', seq: 5, sessionId: 'ses_x', attempt: 2 });
    expect(e.turnEnd('completed', 'ses_sub')).toEqual({
      type: 'turn/end',
      runId: 'run_x',
      seq: 6,
      sessionId: 'ses_sub',
      reason: { kind: 'completed' },
    });
    expect(e.completed({ status: 'COMPLETED', assistantText: 'x' })).toMatchObject({ seq: 7, attempt: 2 });
    expect(e.lastSeq).toBe(7);
  });

  it('words() streams one delta per word, spaces kept, joining back to the text', () => {
    const e = createEventFactory();
    const deltas = e.words('naïve 東京  🚀 end');
    expect(deltas.map((event) => event.delta).join('')).toBe('naïve 東京  🚀 end');
    expect(deltas.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });
});
