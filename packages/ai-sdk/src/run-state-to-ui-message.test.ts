import { reduceRun, createInitialRunState, type RetainEvents, type RunAction, type RunState } from '@kestrel/core';
import { invoiceSchema, sampleInvoice, scenarioActions, scenarios, type Scenario } from '@kestrel/testing';
import { readUIMessageStream, uiMessageChunkSchema, validateUIMessages, type UIMessage, type UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChunkQueue } from './chunk-queue.js';
import { kestrelDataPartSchemas, type KestrelUIMessage } from './data-part-schemas.js';
import { createRunChunkWriter } from './run-chunk-writer.js';
import { runCompletedToUIMessage, runStateToUIMessage } from './run-state-to-ui-message.js';

/** Every state a client passes through while it plays these actions, starting from `initial`. */
function statesOf(initial: RunState, actions: readonly RunAction[]): RunState[] {
  const states: RunState[] = [];
  let state = initial;
  for (const action of actions) {
    state = reduceRun(state, action);
    states.push(state);
  }
  return states;
}

function initialFor(scenario: Scenario): RunState {
  return createInitialRunState(scenario.usesInvoiceSchema ? { payloadSchema: invoiceSchema } : {});
}

type Part<P = unknown> = KestrelUIMessage<P>['parts'][number];
const partOf = <T extends Part['type'], P = unknown>(message: KestrelUIMessage<P>, type: T) =>
  message.parts.filter((part): part is Extract<Part<P>, { type: T }> => part.type === type);

/** Plays the states through the chunk writer and the real AI SDK stream reader; returns the last message and the error. */
async function streamed(states: readonly RunState[], fromSeq = 0) {
  const writer = createRunChunkWriter({ fromSeq });
  const chunks: UIMessageChunk[] = [];
  let endedAt: RunState | undefined;
  let failure: unknown;
  for (const state of states) {
    const step = writer.next(state);
    chunks.push(...step.chunks);
    if (step.end.kind !== 'open') {
      endedAt = state;
      if (step.end.kind === 'failed') failure = step.end.error;
      break;
    }
  }
  const queue = createChunkQueue<UIMessageChunk>();
  queue.push(...chunks);
  if (failure === undefined) queue.close();
  else queue.fail(new Error('run failed'));
  const stream = queue.stream;
  let message: UIMessage | undefined;
  let streamError: unknown;
  try {
    for await (const snapshot of readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  } catch (error) {
    streamError = error;
  }
  return { message: message as KestrelUIMessage | undefined, chunks, endedAt, streamError };
}

describe('runStateToUIMessage over every shared scenario', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: maps ${scenario.expected.phase} ${scenario.expected.status ?? scenario.expected.errorKind}`, async () => {
      const states = statesOf(initialFor(scenario), scenarioActions(scenario.steps));
      const state = states.at(-1)!;
      const message = runStateToUIMessage(state);
      const expected = scenario.expected;

      expect(message.role).toBe('assistant');
      const [status] = partOf(message, 'data-kestrel-status');
      expect(message.parts[0]).toBe(status);
      expect(status!.data).toMatchObject({ phase: expected.phase, runId: scenario.runId });
      const texts = partOf(message, 'text');
      const drafts = partOf(message, 'data-kestrel-draft');
      // The draft is never a text part; it is one data part when text streamed in this attempt.
      expect(drafts.length).toBe(state.draftText === '' ? 0 : 1);

      if (expected.phase === 'settled') {
        expect(status!.data.status).toBe(expected.status);
        const assistantText = state.output!.assistantText;
        if (typeof assistantText === 'string' && assistantText !== '') {
          expect(texts).toEqual([{ type: 'text', text: assistantText, state: 'done' }]);
        } else {
          expect(texts).toEqual([]);
        }
        if (expected.finishReason !== undefined) {
          expect(partOf(message, 'data-kestrel-finish')[0]!.data.finishReason).toBe(expected.finishReason);
        }
        // Settled: the draft is withdrawn, with no text left to show as an answer.
        expect(drafts.map((part) => part.data)).toEqual(drafts.length === 0 ? [] : [{ state: 'settled' }]);
        expect(partOf(message, 'reasoning').every((part) => part.state === 'done')).toBe(true);
      } else {
        const [error] = partOf(message, 'data-kestrel-error').filter((part) => part.data.source === 'client');
        expect(error!.data.source === 'client' && error!.data.error.kind).toBe(expected.errorKind);
        if (state.result === null) {
          // No outcome: no text part, no finish reason, and whatever streamed is an interrupted draft.
          expect(texts).toEqual([]);
          expect(partOf(message, 'data-kestrel-finish')).toEqual([]);
          expect(drafts.every((part) => part.data.state === 'interrupted')).toBe(true);
          if (expected.draftText !== undefined)
            expect(drafts[0]!.data).toEqual({ state: 'interrupted', text: expected.draftText });
        }
      }

      const outcome = state.result?.output.status;
      const payloads = partOf(message, 'data-kestrel-payload');
      if (expected.payload === 'valid')
        expect(payloads.map((part) => part.data)).toEqual([{ status: 'valid', value: sampleInvoice }]);
      if (expected.payload === 'invalid') {
        expect(payloads[0]!.data.status).toBe('invalid');
        expect(payloads[0]!.data.status === 'invalid' && payloads[0]!.data.issues.length).toBeGreaterThan(0);
      }
      if (expected.payload === 'absent' || outcome !== 'COMPLETED') expect(payloads).toEqual([]);
      // The payload is data, never text.
      if (state.output?.status === 'COMPLETED' && state.output.finalizedPayload !== undefined) {
        const json = JSON.stringify(state.output.finalizedPayload);
        expect(texts.some((part) => part.text.includes(json))).toBe(false);
      }
      expect(partOf(message, 'data-kestrel-error').some((part) => part.data.source === 'output')).toBe(
        outcome === 'FAILED',
      );
      expect(partOf(message, 'data-kestrel-cancellation').length).toBe(outcome === 'CANCELLED' ? 1 : 0);
      const interactions = partOf(message, 'data-kestrel-interaction');
      expect(interactions.length).toBe(outcome === 'WAITING' ? 1 : 0);
      if (outcome === 'WAITING') {
        expect(interactions[0]!.data).toMatchObject({
          runId: scenario.runId,
          sessionId: scenario.sessionId,
          seq: state.result!.seq,
        });
        expect(interactions[0]!.data.interaction).toEqual(
          state.result!.output.status === 'WAITING' && state.result!.output.interaction,
        );
      }

      // Tools keep their states and the order they started in.
      expect(partOf(message, 'dynamic-tool').map((part) => [part.toolCallId, part.state])).toEqual(
        state.tools.map((tool) => [
          tool.callId,
          { running: 'input-available', succeeded: 'output-available', failed: 'output-error' }[tool.status],
        ]),
      );

      // The real AI SDK accepts the message, data parts checked by the exported schemas.
      await expect(
        validateUIMessages<KestrelUIMessage>({ messages: [message], dataSchemas: kestrelDataPartSchemas }),
      ).resolves.toHaveLength(1);
    });

    it(`${scenario.name}: the streamed chunks build the same message in the real AI SDK`, async () => {
      const states = statesOf(initialFor(scenario), scenarioActions(scenario.steps));
      const { message, chunks, endedAt, streamError } = await streamed(states);
      const reference = endedAt ?? states.at(-1)!;
      expect(message).toEqual(runStateToUIMessage(reference));
      // The AI SDK's own finishReason is the reply's: the run-level kind travels only in data-kestrel-finish.
      expect(chunks.filter((chunk) => chunk.type === 'finish')).toEqual(
        reference.phase === 'settled' ? [{ type: 'finish' }] : [],
      );
      const finished = reference.phase === 'settled';
      expect(streamError !== undefined).toBe(!finished);
      // Each chunk is one the AI SDK's own wire schema accepts, so a server can send them to DefaultChatTransport.
      const wire = uiMessageChunkSchema();
      for (const chunk of chunks) expect(await wire.validate?.(chunk), chunk.type).toMatchObject({ success: true });
    });
  }
});

/** The state with its finish reason unknown, as the core reports a run it read only from its result. */
const withUnknownFinishReason = (state: RunState): RunState => ({
  ...state,
  finishReason: undefined as unknown as RunState['finishReason'],
});

describe('the finish reason', () => {
  const scenario = scenarios.find((s) => s.name === 'completed-text')!;
  const states = statesOf(initialFor(scenario), scenarioActions(scenario.steps));

  it('is carried by data-kestrel-finish, null included when no root turn ended', async () => {
    const settled = { ...states.at(-1)!, finishReason: null };
    expect(partOf(runStateToUIMessage(settled), 'data-kestrel-finish').map((part) => part.data)).toEqual([
      { finishReason: null },
    ]);
    const { message } = await streamed([...states.slice(0, -1), settled]);
    expect(partOf(message!, 'data-kestrel-finish').map((part) => part.data)).toEqual([{ finishReason: null }]);
  });

  it('is left out, not sent as null, when it is not known', async () => {
    const unknown = states.map(withUnknownFinishReason);
    const message = runStateToUIMessage(unknown.at(-1)!);
    expect(partOf(message, 'data-kestrel-finish')).toEqual([]);
    expect(partOf(message, 'text')).toHaveLength(1);
    const { message: built, chunks } = await streamed(unknown);
    expect(built).toEqual(message);
    expect(chunks.some((chunk) => chunk.type === 'data-kestrel-finish')).toBe(false);
  });
});

describe('createRunChunkWriter under frame batching', () => {
  // The client notifies at most once per frame, so the writer sees an arbitrary subsequence of the states.
  it('builds the same message from any subsequence of the states that ends with the last one', async () => {
    const settledScenarios = scenarios.filter((scenario) => scenario.expected.phase === 'settled');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...settledScenarios),
        fc.constantFrom<RetainEvents>('all', 'structural'),
        fc.infiniteStream(fc.boolean()),
        async (scenario, retainEvents, keep) => {
          const states = statesOf(initialFor(scenario), scenarioActions(scenario.steps));
          // Folded deltas (retainEvents: 'structural') must not change the message either.
          const retained = statesOf({ ...initialFor(scenario), retainEvents }, scenarioActions(scenario.steps));
          const batched = retained.filter((_, index) => index === retained.length - 1 || keep.next().value);
          const [all, sampled] = await Promise.all([streamed(states), streamed(batched)]);
          expect(sampled.message).toEqual(all.message);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe('answering a WAITING interaction', () => {
  const answerable = scenarios.filter((scenario) => scenario.continuation !== undefined);

  it('covers every answerable WAITING scenario', () => {
    expect(answerable.length).toBeGreaterThanOrEqual(5);
  });

  for (const scenario of answerable) {
    it(`${scenario.name}: the next attempt is a new message with only its own parts`, async () => {
      const waiting = statesOf(initialFor(scenario), scenarioActions(scenario.steps)).at(-1)!;
      const [, ...rest] = scenarioActions(scenario.continuation!.steps);
      const next = statesOf(waiting, [{ type: 'client/start-requested', mode: 'respond' }, ...rest]);
      const state = next.at(-1)!;
      const message = runStateToUIMessage(state);
      expect(message.id).toBe(`kestrel-${scenario.runId}-2`);
      expect(partOf(message, 'text')).toEqual([
        { type: 'text', text: scenario.continuation!.expected.assistantText, state: 'done' },
      ]);
      expect(partOf(message, 'data-kestrel-interaction')).toEqual([]);
      expect(partOf(message, 'reasoning')).toEqual([
        { type: 'reasoning', id: 'reasoning', text: 'Reading the request. Planning the answer.', state: 'done' },
      ]);
      const { message: built } = await streamed(next, waiting.lastSeq);
      expect(built).toEqual(message);
    });
  }
});

describe('runCompletedToUIMessage', () => {
  it('maps a JSON-route terminal event with a typed payload, and no finish reason it cannot know', () => {
    const scenario = scenarios.find((s) => s.name === 'completed-payload')!;
    const event = statesOf(initialFor(scenario), scenarioActions(scenario.steps)).at(-1)!.result!;
    const message = runCompletedToUIMessage(event, { payloadSchema: invoiceSchema });
    expect(message.id).toBe(`kestrel-${scenario.runId}-1`);
    // Unknown is not "no root turn ended": no finish part at all rather than finishReason: null.
    expect(message.parts.map((part) => part.type)).toEqual(['data-kestrel-status', 'text', 'data-kestrel-payload']);
    const payload = partOf(message, 'data-kestrel-payload')[0]!.data;
    expect(payload.status === 'valid' && payload.value.total).toBe(sampleInvoice.total);
  });

  it('keeps a WAITING interaction answerable after a reload (from the settled result)', () => {
    const scenario = scenarios.find((s) => s.name === 'waiting-form')!;
    const event = statesOf(initialFor(scenario), scenarioActions(scenario.steps)).at(-1)!.result!;
    const message = runCompletedToUIMessage(event);
    expect(partOf(message, 'data-kestrel-status')[0]!.data).toMatchObject({
      phase: 'settled',
      status: 'WAITING',
      sessionId: scenario.sessionId,
    });
    expect(partOf(message, 'data-kestrel-interaction')[0]!.data.interaction.kind).toBe('form');
  });
});

describe('kestrelDataPartSchemas', () => {
  it('refuses a data part that does not match (useChat and validateUIMessages report it)', async () => {
    const bad: UIMessage = {
      id: 'm',
      role: 'assistant',
      parts: [{ type: 'data-kestrel-status', id: 'kestrel-status', data: { phase: 'done' } }],
    };
    await expect(validateUIMessages({ messages: [bad], dataSchemas: kestrelDataPartSchemas })).rejects.toThrow(
      /kestrel-status/,
    );
  });
});

describe("with retainEvents: 'structural' (deltas folded out of state.events)", () => {
  const structuralFor = (scenario: Scenario): RunState => ({ ...initialFor(scenario), retainEvents: 'structural' });

  it('keeps fewer events in the scenarios that stream text or reasoning, and counts them all', () => {
    const folded = scenarios.filter((scenario) => {
      const kept = statesOf(structuralFor(scenario), scenarioActions(scenario.steps)).at(-1)!;
      const every = statesOf(initialFor(scenario), scenarioActions(scenario.steps)).at(-1)!;
      expect(kept.eventCount).toBe(every.events.length);
      return kept.events.length < every.events.length;
    });
    expect(folded.length).toBeGreaterThan(5);
  });

  for (const scenario of scenarios) {
    it(`${scenario.name}: the message, built from the state or streamed, is the one every event gives`, async () => {
      const actions = scenarioActions(scenario.steps);
      const every = statesOf(initialFor(scenario), actions);
      const kept = statesOf(structuralFor(scenario), actions);
      kept.forEach((state, index) => expect(runStateToUIMessage(state)).toEqual(runStateToUIMessage(every[index]!)));
      const [fromEvery, fromKept] = await Promise.all([streamed(every), streamed(kept)]);
      expect(fromKept.message).toEqual(fromEvery.message);
      expect(fromKept.endedAt?.phase).toBe(fromEvery.endedAt?.phase);
    });
  }
});
