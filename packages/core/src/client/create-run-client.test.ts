import { invoiceResponseFormat, invoiceSchema, scenarioEvents, scenarios, type Scenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClientError } from './run-client-error.js';
import {
  project,
  referenceState,
  startLoopbackKestrel,
  testClient,
  type LoopbackKestrel,
} from './loopback-kestrel.test-helper.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

function startScenario(scenario: Scenario) {
  const client = testClient(kestrel, { scenario: scenario.name });
  return client.start({
    input: scenario.input,
    ...(scenario.usesInvoiceSchema ? { payloadSchema: invoiceSchema, responseFormat: invoiceResponseFormat } : {}),
  });
}

const settling = scenarios.filter(
  (scenario) => scenario.expected.phase === 'settled' && scenario.name !== 'event-after-completed',
);
const failing = scenarios.filter(
  (scenario) => scenario.expected.phase === 'error' && scenario.name !== 'event-after-completed',
);

describe('SSE: every scenario over real HTTP reads like an unbroken careful reading', () => {
  it.each(settling.map((scenario) => [scenario.name, scenario] as const))(
    '%s settles with its run.completed',
    async (_name, scenario) => {
      const handle = startScenario(scenario);
      const event = await handle.result;
      const state = handle.getState();
      expect(event.output.status).toBe(scenario.expected.status);
      expect(state.result).toBe(event);
      expect(project(state)).toEqual(
        project(referenceState(scenario, scenario.usesInvoiceSchema ? { payloadSchema: invoiceSchema } : {})),
      );
      if (scenario.expected.finishReason !== undefined) expect(state.finishReason).toBe(scenario.expected.finishReason);
      if (scenario.expected.payload !== undefined) expect(state.payload?.status).toBe(scenario.expected.payload);
      if (scenario.expected.assistantText !== undefined)
        expect(state.output?.assistantText).toBe(scenario.expected.assistantText);
      // Nothing the server sent is lost, and nothing is kept twice.
      expect(state.events.length).toBe(new Set(scenarioEvents(scenario.steps).map((wire) => wire.seq)).size);
    },
  );

  it.each(failing.map((scenario) => [scenario.name, scenario] as const))(
    '%s rejects with a typed error',
    async (_name, scenario) => {
      const handle = startScenario(scenario);
      const error = await handle.result.then(
        () => expect.unreachable('a run without an outcome must not resolve'),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(RunClientError);
      const state = handle.getState();
      expect((error as RunClientError).kind).toBe(scenario.expected.errorKind);
      expect((error as RunClientError).detail).toEqual(state.error);
      expect(project(state)).toEqual(project(referenceState(scenario)));
      if (scenario.expected.draftText !== undefined) expect(state.draftText).toBe(scenario.expected.draftText);
    },
  );

  it('names the seq of a malformed event in the error', async () => {
    const handle = startScenario(scenarios.find((scenario) => scenario.name === 'malformed-event')!);
    const error = (await handle.result.catch((reason: unknown) => reason)) as RunClientError;
    const last = handle.getState().lastSeq;
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain(`seq ${last + 1}`);
    expect(error.message).toContain('callId');
    expect(handle.getState().error).toMatchObject({ kind: 'protocol', seq: last + 1, path: ['callId'] });
  });

  it('keeps the real result readable when events follow run.completed, and reports the protocol error', async () => {
    const scenario = scenarios.find((candidate) => candidate.name === 'event-after-completed')!;
    const handle = startScenario(scenario);
    const event = await handle.result;
    expect(event.output).toMatchObject({ status: 'COMPLETED', assistantText: 'Done.' });
    await expect.poll(() => handle.getState().phase).toBe('error');
    const state = handle.getState();
    expect(state.error).toMatchObject({ kind: 'protocol', seq: event.seq + 1 });
    expect(state.result).toBe(event);
  });
});

describe('JSON route', () => {
  const statuses = scenarios.filter(
    (scenario) => scenario.expected.phase === 'settled' && scenario.expected.status !== undefined,
  );

  it.each(statuses.map((scenario) => [scenario.name, scenario] as const))(
    '%s answers one terminal event',
    async (_name, scenario) => {
      const client = testClient(kestrel, { scenario: scenario.name });
      // An input this handler has not played: played again, a scenario with a `retry` plays that instead.
      const input = `${scenario.input} (JSON route)`;
      const event = await client.run({ input });
      expect(event.type).toBe('run.completed');
      expect(event.output.status).toBe(scenario.expected.status);
      const reference = referenceState(scenario);
      expect(event.output).toEqual(reference.output);
      const request = kestrel.requests
        .filter((entry) => entry.headers['x-kestrel-scenario'] === scenario.name && entry.method === 'POST')
        .at(-1);
      expect(request?.headers.accept).toBe('application/json');
      expect(JSON.parse(request?.body ?? '{}')).toEqual({ input });
    },
  );

  it('rejects a COMPLETED answer without assistant text as a protocol error', async () => {
    const client = testClient(kestrel, { scenario: 'completed-without-text' });
    const error = (await client.run({ input: 'Say something' }).catch((reason: unknown) => reason)) as RunClientError;
    expect(error).toBeInstanceOf(RunClientError);
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('output.assistantText');
  });
});

const settlingPlain = scenarios.filter(
  (scenario) =>
    scenario.expected.phase === 'settled' && scenario.name !== 'event-after-completed' && !scenario.usesInvoiceSchema,
);

/** Everything a person sees, without the list of events. */
function seen(state: Parameters<typeof project>[0]) {
  const { events: _events, ...rest } = project(state);
  return rest;
}

describe("retainEvents: 'structural' over real HTTP", () => {
  it.each(settlingPlain.map((scenario) => [scenario.name, scenario] as const))(
    '%s: shows what every event shows, keeps no delta that continues a run of them, counts every event',
    async (_name, scenario) => {
      const handle = testClient(kestrel, { scenario: scenario.name, retainEvents: 'structural' }).start({
        input: `${scenario.input} (structural)`, // not played before (see the JSON route above)
      });
      await handle.result;
      const state = handle.getState();
      expect(seen(state)).toEqual(seen(referenceState(scenario)));
      expect(state.eventCount).toBe(new Set(scenarioEvents(scenario.steps).map((wire) => wire.seq)).size);
      const kept = state.events.toArray();
      kept.forEach((event, index) => {
        const previous = kept[index - 1];
        if (event.type !== 'text.delta' && event.type !== 'reasoning.delta') return;
        // A delta is kept only where a run of its kind begins (or after an empty one).
        expect(previous?.type === event.type && previous.delta !== '').toBe(false);
      });
    },
  );

  it('keeps every event for a run that asks for all, whatever the client default', async () => {
    const scenario = settlingPlain.find((candidate) => candidate.name === 'completed-text')!;
    const client = testClient(kestrel, { scenario: scenario.name, retainEvents: 'structural' });
    const handle = client.start({ input: scenario.input, retainEvents: 'all' });
    await handle.result;
    expect(handle.getState().events.length).toBe(handle.getState().eventCount);
    expect(handle.getState().retainEvents).toBe('all');
  });

  it('folds the deltas of a resumed run too', async () => {
    const scenario = settlingPlain.find((candidate) => candidate.name === 'completed-text')!;
    const client = testClient(kestrel, { scenario: scenario.name });
    const started = client.start({ input: scenario.input });
    await started.result;
    const resumed = client.resume({ runId: started.getState().runId!, retainEvents: 'structural' });
    await resumed.result;
    expect(resumed.getState().draftText).toBe(started.getState().draftText);
    expect(resumed.getState().events.length).toBeLessThan(started.getState().events.length);
  });

  it('refuses any other value with a RangeError naming the option', () => {
    const bad = 'none' as unknown as 'all';
    expect(() => testClient(kestrel, { retainEvents: bad })).toThrow(
      new RangeError(`retainEvents must be 'all' or 'structural', got "none"`),
    );
    expect(() => testClient(kestrel).start({ input: 'hi', retainEvents: bad })).toThrow(RangeError);
    expect(() => testClient(kestrel).resume({ runId: 'run_1', retainEvents: bad })).toThrow(RangeError);
  });
});
