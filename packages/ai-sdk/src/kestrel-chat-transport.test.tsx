import { useChat, type UseChatHelpers } from '@ai-sdk/react';
import {
  RunClientError,
  createRunClient,
  type RunClient,
  type RunClientOptions,
  type RunHandle,
  type RunState,
} from '@kestrel/core';
import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import {
  ev,
  getScenario,
  invoiceResponseFormat,
  invoiceSchema,
  recordingFetch,
  sampleInvoice,
  scenarios,
  type Scenario,
} from '@kestrel/testing';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ChatStatus, ChatTransport, UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  kestrelDataPartSchemas,
  type KestrelDataTypes,
  type KestrelDraftData,
  type KestrelProgressData,
  type KestrelStatusData,
  type KestrelUIMessage,
} from './data-part-schemas.js';
import { pendingInteraction, respondWithAnswer } from './interaction-answer.js';
import { KestrelChatError } from './kestrel-chat-error.js';
import { KestrelChatTransport, type KestrelChatTransportOptions } from './kestrel-chat-transport.js';
import { createMemoryRunStore } from './run-store.js';
import { InteractionAnswerError } from '@kestrel/core';
import { runStateToUIMessage } from './run-state-to-ui-message.js';

/** `failed-retryable` settling with no assistant text at all: the draft it streamed must not become the answer. */
function failedAfterDraft(): Scenario {
  const base = getScenario('failed-retryable');
  const steps = base.steps.map((step) =>
    step.kind === 'event' && step.event.type === 'run.completed'
      ? ev({ ...step.event, output: { ...(step.event['output'] as object), assistantText: null } })
      : step,
  );
  return { ...base, name: 'failed-after-draft', steps, expected: { ...base.expected, assistantText: null } };
}

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel({ stallMs: 20, scenarios: [...scenarios, failedAfterDraft()] });
});
afterAll(() => kestrel.close());

type Chat = UseChatHelpers<KestrelUIMessage>;
type Part = KestrelUIMessage['parts'][number];

interface Setup {
  /** Sent as `x-kestrel-fault` on the first request only (a resume then gets a healthy connection). */
  readonly fault?: string;
  /** Sent as `x-kestrel-delay` (ms between events) on every request. */
  readonly delayMs?: number;
  readonly client?: Partial<RunClientOptions>;
  readonly transport?: Partial<KestrelChatTransportOptions>;
  /** A chat restored after a reload: its id, its saved messages, and whether useChat resumes on mount. */
  readonly chat?: { readonly id?: string; readonly messages?: KestrelUIMessage[]; readonly resume?: boolean };
}

/** Wraps a client so the test sees the state each attempt ended in (settled, failed or detached): what the transport streamed. */
function watchEnds(client: RunClient, ends: RunState[]): RunClient {
  const watch = <P,>(handle: RunHandle<P>): RunHandle<P> => {
    const unsubscribe = handle.subscribe(() => {
      const state = handle.getState();
      if (
        (state.phase === 'settled' && state.result !== null) ||
        state.phase === 'error' ||
        state.phase === 'detached'
      ) {
        ends.push(state);
        unsubscribe();
      }
    });
    return handle;
  };
  return {
    ...client,
    start: (options) => watch(client.start(options)),
    resume: (options) => watch(client.resume(options)),
  };
}

/**
 * Starts a chat action without holding an `act` scope open while it streams. AI SDK 7's `useChat` renders through
 * `setState`, which an open async `act` holds back until it ends: the test would see no render mid-stream. Outside
 * `act`, React renders each update as a browser would (Testing Library's `waitFor` waits with act off).
 */
function inBackground(action: () => Promise<void>): { done: () => Promise<void> } {
  let settled = false;
  let failure: { error: unknown } | null = null;
  let running: Promise<void> = Promise.resolve();
  act(() => {
    running = action().then(
      () => void (settled = true),
      (error: unknown) => {
        settled = true;
        failure = { error };
      },
    );
  });
  return {
    done: async () => {
      await waitFor(() => expect(settled).toBe(true), { timeout: 10_000 });
      await act(() => running); // flushes the last renders
      if (failure !== null) throw (failure as { error: unknown }).error;
    },
  };
}

function setup(options: Setup = {}) {
  let faults = options.fault === undefined ? 0 : 1;
  const recorder = recordingFetch();
  const ends: RunState[] = [];
  const client = watchEnds(
    createRunClient({
      baseUrl: kestrel.url,
      fetch: recorder.fetch,
      headers: () => ({
        ...(faults-- > 0 && options.fault !== undefined ? { 'x-kestrel-fault': options.fault } : {}),
        ...(options.delayMs === undefined ? {} : { 'x-kestrel-delay': String(options.delayMs) }),
      }),
      reconnect: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      heartbeatTimeoutMs: 1_000,
      ...options.client,
    }),
    ends,
  );
  const transport = new KestrelChatTransport({ client, ...options.transport });
  const statuses: ChatStatus[] = [];
  const finishes: { isError: boolean; finishReason: string | undefined }[] = [];
  const phases: string[] = [];
  const progress: KestrelProgressData[] = [];
  const drafts: KestrelDraftData[] = [];
  const hook = renderHook(() => {
    const chat = useChat<KestrelUIMessage>({
      ...options.chat,
      transport,
      dataPartSchemas: kestrelDataPartSchemas,
      onFinish: ({ isError, finishReason }) => finishes.push({ isError, finishReason }),
      onData: (part) => {
        if (part.type === 'data-kestrel-status') phases.push((part.data as KestrelStatusData).phase);
        if (part.type === 'data-kestrel-progress') progress.push(part.data as KestrelProgressData);
        if (part.type === 'data-kestrel-draft') drafts.push(part.data as KestrelDraftData);
      },
    });
    if (statuses.at(-1) !== chat.status) statuses.push(chat.status);
    return chat;
  });
  const chat = (): Chat => hook.result.current;
  const send = (text: string) => inBackground(() => chat().sendMessage({ text })).done();
  const last = () => chat().messages.at(-1)!;
  return {
    chat,
    send,
    last,
    statuses,
    finishes,
    phases,
    progress,
    drafts,
    recorder,
    transport,
    ends,
    unmount: hook.unmount,
  };
}

const partsOf = <T extends Part['type']>(message: KestrelUIMessage, type: T) =>
  message.parts.filter((part): part is Extract<Part, { type: T }> => part.type === type);
const dataOf = <K extends keyof KestrelDataTypes>(message: KestrelUIMessage, type: `data-${K}`) =>
  (message.parts.find((part) => part.type === type) as { data: KestrelDataTypes[K] } | undefined)?.data;
const visibleText = (message: KestrelUIMessage) =>
  partsOf(message, 'text')
    .map((part) => part.text)
    .join('');

/** A recording fetch whose first POST (the first start) answers 200 ms late. */
function slowFirstStartFetch() {
  const recorder = recordingFetch();
  let first = true;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await recorder.fetch(input, init);
    if (first && init?.method === 'POST') {
      first = false;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return response;
  };
  return { recorder, fetch };
}

/**
 * One transport whose chats an app gives one Kestrel session, the one the first run names, with `onAbort: 'cancel'`.
 * Paced so a cancelled run takes a while to end: a message sent meanwhile would meet it live.
 */
function oneSessionSetup(client?: Partial<RunClientOptions>) {
  const shared: { sessionId?: string } = {};
  const t = setup({
    delayMs: 150,
    ...(client === undefined ? {} : { client }),
    transport: {
      onAbort: 'cancel',
      sessionId: () => shared.sessionId,
      onSessionId: ({ sessionId }) => void (shared.sessionId ??= sessionId),
    },
  });
  return { t, shared };
}

/** A second chat on `t`'s transport sends a message, which must be answered (a `409` would fail it). */
async function sendInOtherChat(t: ReturnType<typeof setup>): Promise<void> {
  const other = renderHook(() =>
    useChat<KestrelUIMessage>({ id: 'other-chat', transport: t.transport, dataPartSchemas: kestrelDataPartSchemas }),
  );
  const scenario = getScenario('completed-text');
  await inBackground(() =>
    other.result.current.sendMessage({ text: `[scenario:completed-text] ${scenario.input} elsewhere` }),
  ).done();
  expect(other.result.current.error).toBeUndefined();
  expect(visibleText(other.result.current.messages.at(-1)!)).toBe(scenario.expected.assistantText);
  other.unmount();
}

/** Sends a paced message and calls `stop()` once its draft streams: the transport lets the run go. */
async function stopMidStream(
  t: ReturnType<typeof setup>,
  text = '[scenario:completed-text] What is the capital of Australia?',
): Promise<void> {
  const sending = inBackground(() => t.chat().sendMessage({ text }));
  await waitFor(() =>
    expect(t.last().role === 'assistant' && dataOf(t.last(), 'data-kestrel-draft')?.state).toBe('streaming'),
  );
  await act(() => t.chat().stop());
  await sending.done();
}

describe('useChat with KestrelChatTransport against the loopback mock Kestrel', () => {
  it('COMPLETED: streams, then finishes with the final text, finish reason and status', async () => {
    const scenario = getScenario('completed-text');
    // Paced, so the streaming status gets a render of its own (AI SDK 7 batches renders that come together).
    const t = setup({ delayMs: 10 });
    await t.send(`[scenario:completed-text] ${scenario.input}`);
    expect(t.chat().status).toBe('ready');
    expect(t.chat().error).toBeUndefined();
    expect(t.statuses).toEqual(['ready', 'submitted', 'streaming', 'ready']);
    const message = t.last();
    expect(message.role).toBe('assistant');
    expect(partsOf(message, 'text')).toEqual([
      expect.objectContaining({ text: scenario.expected.assistantText, state: 'done' }),
    ]);
    expect(partsOf(message, 'reasoning')).toEqual([
      expect.objectContaining({ text: 'Reading the request. Planning the answer.', state: 'done' }),
    ]);
    expect(dataOf(message, 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
    expect(dataOf(message, 'data-kestrel-finish')).toEqual({ finishReason: 'completed' });
    // The run-level kind is not the reply's finish reason: useChat's own stays unset.
    expect(t.finishes).toEqual([{ isError: false, finishReason: undefined }]);
  });

  it('streams the draft as a data-kestrel-draft part, never as text, and withdraws it once settled', async () => {
    const scenario = getScenario('completed-text');
    const t = setup({ delayMs: 20 });
    const sending = t.send(`[scenario:completed-text] ${scenario.input}`);
    await waitFor(() => expect(dataOf(t.last(), 'data-kestrel-draft')).toMatchObject({ state: 'streaming' }));
    // While the run streams, the message has the draft and no text part a renderer could take for the answer.
    expect(partsOf(t.last(), 'text')).toEqual([]);
    await sending;
    const streamedDrafts = t.drafts
      .filter((draft) => draft.state === 'streaming')
      .map((draft) => ('text' in draft ? draft.text : ''));
    expect(streamedDrafts.length).toBeGreaterThan(0);
    expect(streamedDrafts.every((text, index) => index === 0 || text.startsWith(streamedDrafts[index - 1]!))).toBe(
      true,
    );
    expect(scenario.expected.assistantText!.startsWith(streamedDrafts.at(-1)!)).toBe(true);
    expect(t.drafts.at(-1)).toEqual({ state: 'settled' });
    expect(dataOf(t.last(), 'data-kestrel-draft')).toEqual({ state: 'settled' });
    expect(partsOf(t.last(), 'text').map((part) => part.text)).toEqual([scenario.expected.assistantText]);
  });

  it('COMPLETED with a payload: the payload is a typed data part, never text; tools carry their states', async () => {
    const t = setup({ transport: { responseFormat: invoiceResponseFormat, payloadSchema: invoiceSchema } });
    await t.send('[scenario:completed-payload] Extract the invoice');
    const message = t.last();
    expect(dataOf(message, 'data-kestrel-payload')).toEqual({ status: 'valid', value: sampleInvoice });
    expect(visibleText(message)).not.toContain(sampleInvoice.invoiceNumber + '"');
    expect(partsOf(message, 'text').some((part) => part.text.includes(JSON.stringify(sampleInvoice)))).toBe(false);
    expect(partsOf(message, 'dynamic-tool')).toEqual([
      expect.objectContaining({
        toolName: 'ocr.extract',
        toolCallId: 'call_ocr',
        state: 'output-available',
        output: { pages: 1, characters: 1834 },
      }),
    ]);
    // Progress reaches onData as it happens and is not kept on the finished message.
    expect(t.progress).toEqual([
      { label: 'Reading the invoice', fraction: 0.4 },
      { label: 'Extracting fields', fraction: 0.8 },
    ]);
    expect(message.parts.some((part) => part.type === 'data-kestrel-progress')).toBe(false);
    const body = JSON.parse(t.recorder.requests.find((request) => request.method === 'POST')!.body) as {
      responseFormat?: unknown;
    };
    expect(body.responseFormat).toEqual(invoiceResponseFormat);
  });

  it('FAILED: a finished message whose error is the output evidence, not a chat error', async () => {
    const scenario = getScenario('failed-retryable');
    const t = setup();
    await t.send(`[scenario:failed-retryable] ${scenario.input}`);
    expect(t.chat().status).toBe('ready');
    const message = t.last();
    expect(dataOf(message, 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'FAILED' });
    expect(dataOf(message, 'data-kestrel-error')).toEqual({
      source: 'output',
      error: {
        code: 'provider_overloaded',
        message: 'The model provider is overloaded. Try again shortly.',
        retryable: true,
      },
    });
    // The streamed draft is not what the run settled with: the only text part is the output's own text.
    expect(partsOf(message, 'text')).toEqual([
      expect.objectContaining({
        text: 'I could not finish the conversion because the model provider is overloaded.',
        state: 'done',
      }),
    ]);
    expect(dataOf(message, 'data-kestrel-draft')).toEqual({ state: 'settled' });
    expect(dataOf(message, 'data-kestrel-finish')).toEqual({ finishReason: 'error' });
    expect(t.finishes).toEqual([{ isError: false, finishReason: undefined }]);
  });

  it('FAILED with no assistant text after a draft: the message has no text part at all', async () => {
    const t = setup({ delayMs: 20 });
    await t.send('[scenario:failed-after-draft] Convert 200 USD to EUR');
    expect(t.chat().status).toBe('ready');
    const message = t.last();
    expect(dataOf(message, 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'FAILED' });
    expect(partsOf(message, 'text')).toEqual([]);
    expect(t.drafts.some((draft) => draft.state === 'streaming' && draft.text.startsWith('I started looking up'))).toBe(
      true,
    );
    expect(dataOf(message, 'data-kestrel-draft')).toEqual({ state: 'settled' });
    expect(JSON.stringify(message.parts)).not.toContain('I started looking up');
  });

  it('CANCELLED: a finished message with the cancellation, distinct from FAILED', async () => {
    const t = setup();
    await t.send('[scenario:cancelled] Write a report');
    const message = t.last();
    expect(dataOf(message, 'data-kestrel-status')).toMatchObject({ status: 'CANCELLED' });
    expect(dataOf(message, 'data-kestrel-cancellation')).toEqual({ reason: 'Stopped by the user', by: 'user' });
    expect(partsOf(message, 'data-kestrel-error')).toEqual([]);
  });

  it('WAITING: the message finishes with the interaction; an explicit answer continues the run as a new message', async () => {
    const scenario = getScenario('waiting-approval');
    const t = setup();
    await t.send(`[scenario:waiting-approval] ${scenario.input}`);
    expect(t.chat().status).toBe('ready');
    const waiting = pendingInteraction(t.chat().messages);
    expect(waiting?.interaction).toMatchObject({ id: 'int_approval', kind: 'approval', action: 'email.send' });
    expect(dataOf(t.last(), 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'WAITING' });

    await act(() => respondWithAnswer(t.chat(), scenario.continuation!.answer));
    expect(t.chat().status).toBe('ready');
    const [user, answer] = t.chat().messages.slice(-2);
    expect(user!.role).toBe('user');
    expect(user!.metadata).toEqual({ kestrelAnswer: scenario.continuation!.answer });
    expect(visibleText(answer!)).toBe(scenario.continuation!.expected.assistantText);
    expect(dataOf(answer!, 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'COMPLETED', attempt: 2 });
    expect(pendingInteraction(t.chat().messages)).toBeNull();
    const answerPost = t.recorder.requests.find((request) => request.path.includes('/interactions/int_approval'));
    expect(JSON.parse(answerPost!.body)).toEqual(scenario.continuation!.answer);
  });

  it('WAITING for text: the next plain user message is the answer', async () => {
    const scenario = getScenario('waiting-text');
    const t = setup();
    await t.send(`[scenario:waiting-text] ${scenario.input}`);
    await t.send('Please fix the heating by Friday.');
    expect(t.chat().status).toBe('ready');
    expect(visibleText(t.last())).toBe(scenario.continuation!.expected.assistantText);
    const answerPost = t.recorder.requests.find((request) => request.path.includes('/interactions/int_text'));
    expect(JSON.parse(answerPost!.body)).toEqual({ kind: 'text', text: 'Please fix the heating by Friday.' });
  });

  it('WAITING for an approval: a plain message is refused with a clear error once Kestrel confirms the wait; nothing is started or answered', async () => {
    const t = setup();
    await t.send('[scenario:waiting-approval] Email the Q3 report');
    const requests = t.recorder.requests.length;
    await t.send('yes please');
    expect(t.chat().status).toBe('error');
    expect(t.chat().error).toBeInstanceOf(KestrelChatError);
    expect((t.chat().error as KestrelChatError).reason).toBe('answer-required');
    expect(t.chat().error!.message).toContain('"approval"');
    expect(t.recorder.requests.slice(requests).map((request) => request.method)).toEqual(['GET']); // the result check
    expect(pendingInteraction(t.chat().messages)?.interaction.id).toBe('int_approval');
    await act(() => respondWithAnswer(t.chat(), { kind: 'approval', approved: false, comment: 'Not yet' }));
    expect(t.chat().status).toBe('ready');
    expect(t.chat().messages.at(-2)).toMatchObject({
      role: 'user',
      parts: [{ type: 'text', text: 'Declined: Not yet' }],
    });
    expect(dataOf(t.last(), 'data-kestrel-status')).toMatchObject({ status: 'COMPLETED', attempt: 2 });
  });

  it('a dropped connection with no reconnects left is a chat error, never a finished message', async () => {
    const t = setup({ fault: 'drop-at:6', client: { reconnect: { attempts: 0 } } });
    await t.send('[scenario:completed-text] What is the capital of Australia?');
    expect(t.chat().status).toBe('error');
    const error = t.chat().error;
    expect(error).toBeInstanceOf(RunClientError);
    expect((error as RunClientError).kind).toBe('transport');
    const message = t.last();
    expect(message.role).toBe('assistant');
    expect(partsOf(message, 'data-kestrel-finish')).toEqual([]);
    expect(dataOf(message, 'data-kestrel-status')).toMatchObject({ phase: 'error', status: null });
    expect(dataOf(message, 'data-kestrel-error')).toMatchObject({ source: 'client', error: { kind: 'transport' } });
    // No outcome: no text part, and the draft says it was cut off.
    expect(partsOf(message, 'text')).toEqual([]);
    expect(dataOf(message, 'data-kestrel-draft')).toMatchObject({ state: 'interrupted' });
    expect(t.finishes).toEqual([{ isError: true, finishReason: undefined }]);
  });

  it('a dropped connection the client resumes completes the same message', async () => {
    const scenario = getScenario('dropped-mid-stream');
    const t = setup();
    await t.send(`[scenario:dropped-mid-stream] ${scenario.input}`);
    expect(t.chat().status).toBe('ready');
    expect(visibleText(t.last())).toBe(scenario.expected.assistantText);
    expect(partsOf(t.last(), 'text')).toHaveLength(1);
    expect(t.recorder.requests.some((request) => request.headers['last-event-id'] !== undefined)).toBe(true);
    // useChat stays `streaming` while the client reconnects; the status part says so.
    expect(t.phases).toEqual(['streaming', 'reconnecting', 'streaming', 'settled']);
    expect(t.statuses).toEqual(['ready', 'submitted', 'streaming', 'ready']);
  });

  it('a truncated stream (clean end without run.completed) is a chat error', async () => {
    const t = setup();
    await t.send('[scenario:truncated] Plan the database migration');
    expect(t.chat().status).toBe('error');
    expect((t.chat().error as RunClientError).kind).toBe('truncated');
    expect(partsOf(t.last(), 'data-kestrel-finish')).toEqual([]);
    expect(partsOf(t.last(), 'text')).toEqual([]);
    expect(dataOf(t.last(), 'data-kestrel-draft')).toEqual({
      state: 'interrupted',
      text: getScenario('truncated').expected.draftText,
    });
  });

  it('a truncate fault on a healthy scenario is also a chat error', async () => {
    const t = setup({ fault: 'truncate-at:8' });
    await t.send('[scenario:completed-text] What is the capital of Australia?');
    expect(t.chat().status).toBe('error');
    expect((t.chat().error as RunClientError).kind).toBe('truncated');
  });

  it('a protocol error mid-stream is a chat error naming the event', async () => {
    const t = setup();
    await t.send('[scenario:malformed-event] Look up order 5521');
    expect(t.chat().status).toBe('error');
    const error = t.chat().error as RunClientError;
    expect(error.kind).toBe('protocol');
    expect(error.detail).toMatchObject({ kind: 'protocol', eventType: 'tool.started', path: ['callId'] });
  });

  it('an HTTP error is a chat error with its status, and no assistant message', async () => {
    const t = setup({ fault: 'http-500' });
    await t.send('[scenario:completed-text] Hello');
    expect(t.chat().status).toBe('error');
    expect(t.chat().error).toMatchObject({ kind: 'http', status: 500 });
    expect(t.chat().messages.map((message) => message.role)).toEqual(['user']);
  });

  it('resumeStream() re-attaches to a run whose stream failed, through the client resume', async () => {
    const scenario = getScenario('completed-text');
    const t = setup({ fault: 'drop-at:6', client: { reconnect: { attempts: 0 } } });
    await t.send(`[scenario:completed-text] ${scenario.input}`);
    expect(t.chat().status).toBe('error');
    await act(() => t.chat().resumeStream());
    expect(t.chat().status).toBe('ready');
    expect(t.chat().messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
    expect(visibleText(t.last())).toBe(scenario.expected.assistantText);
    expect(dataOf(t.last(), 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
    expect(
      t.recorder.requests.some(
        (request) => request.method === 'GET' && /\/v1\/runs\/[^/]+\/(events|result)$/.test(request.path),
      ),
    ).toBe(true);
  });

  it('stop() detaches by default (no cancel request); resumeStream() picks the run up again', async () => {
    const t = setup({ delayMs: 15 });
    await stopMidStream(t);
    expect(t.chat().status).toBe('ready');
    expect(t.recorder.requests.some((request) => request.path.endsWith('/cancel'))).toBe(false);
    await act(() => t.chat().resumeStream());
    expect(dataOf(t.last(), 'data-kestrel-status')).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
  });

  it('stop() during a resumed run stops following it: resumeStream() ends at once, the run is detached, not followed to the end', async () => {
    const t = setup({ delayMs: 15 });
    await stopMidStream(t);
    const resuming = inBackground(() => t.chat().resumeStream());
    await waitFor(() => expect(t.ends).toHaveLength(1)); // the first attempt, detached by stop()
    await waitFor(() => expect(t.recorder.requests.filter((request) => request.method === 'GET')).not.toHaveLength(0));
    await act(() => t.chat().stop());
    await resuming.done();
    expect(t.chat().status).toBe('ready');
    // The resumed handle was let go of (detached), not followed to its outcome in the background.
    await waitFor(() => expect(t.ends.map((state) => state.phase)).toEqual(['detached', 'detached']));
    expect(dataOf(t.last(), 'data-kestrel-status')?.phase).not.toBe('settled');
  });

  it('reconnectToStream honours its abort signal: aborting lets the resumed run go and ends the stream', async () => {
    const runStore = createMemoryRunStore();
    const t = setup({ delayMs: 15, transport: { runStore } });
    await stopMidStream(t);
    // What useChat's resumeStream() does, and its stop() then: abort the signal, without cancelling the stream.
    const abort = new AbortController();
    const stream = await t.transport.reconnectToStream({ chatId: t.chat().id, abortSignal: abort.signal });
    const reader = stream!.getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'start' });
    abort.abort();
    await waitFor(() => expect(t.ends.map((state) => state.phase)).toEqual(['detached', 'detached']));
    let rest = await reader.read();
    while (rest.done !== true) rest = await reader.read();
    expect(rest.done).toBe(true);
  });

  it("stop() with onAbort: 'cancel' asks Kestrel to cancel the run", async () => {
    const t = setup({ delayMs: 15, transport: { onAbort: 'cancel' } });
    await stopMidStream(t);
    await waitFor(() =>
      expect(t.recorder.requests.filter((request) => request.path.endsWith('/cancel'))).toHaveLength(1),
    );
  });

  it("a message sent right after stop() with onAbort: 'cancel' waits for the cancelled run to end, then starts", async () => {
    const t = setup({ delayMs: 15, transport: { onAbort: 'cancel' } });
    await stopMidStream(t);
    const scenario = getScenario('completed-text');
    await t.send(`[scenario:completed-text] ${scenario.input} again`); // at once: the run is still live on the server
    expect(t.chat().error).toBeUndefined();
    expect(t.chat().status).toBe('ready');
    expect(visibleText(t.last())).toBe(scenario.expected.assistantText);
    const starts = t.recorder.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/runs'));
    expect(starts).toHaveLength(2); // no 409 and no second try: the start waited for the cancel to settle
  });

  it("two chats on one session: a message in one, right after stop() with onAbort: 'cancel' in the other, waits for that run", async () => {
    const { t, shared } = oneSessionSetup();
    await stopMidStream(t); // the first chat's run, still live on the server
    await sendInOtherChat(t);
    const starts = t.recorder.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/runs'));
    // Both in the one session, and the second start was not refused (a 409 would have failed the other chat).
    expect(starts.map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${shared.sessionId}/runs`,
    ]);
    expect(t.recorder.requests.filter((request) => request.path.endsWith('/cancel'))).toHaveLength(1);
  });

  it('two chats on one session: a run stopped before its start was answered is waited for once it names the session', async () => {
    // The first start's answer is slow to come: stop() lands before the run (and its session) is known.
    const { recorder, fetch } = slowFirstStartFetch();
    const { t, shared } = oneSessionSetup({ fetch });
    const sending = inBackground(() => t.chat().sendMessage({ text: '[scenario:completed-text] first' }));
    await waitFor(() => expect(t.chat().status).toBe('submitted'));
    await act(() => t.chat().stop());
    await sending.done();
    await waitFor(() => expect(shared.sessionId).toBeDefined()); // the stopped run named the session: still live
    await sendInOtherChat(t);
    const starts = recorder.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/runs'));
    expect(starts.map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${shared.sessionId}/runs`,
    ]);
  });

  it('a message stopped while it waits for the cancelled run starts nothing, and the next one still waits', async () => {
    // Paced so the cancelled run takes a while to end: the second message is stopped while it waits.
    const t = setup({ delayMs: 150, transport: { onAbort: 'cancel' } });
    await stopMidStream(t);
    const waiting = inBackground(() => t.chat().sendMessage({ text: '[scenario:completed-text] never sent' }));
    await waitFor(() => expect(t.chat().status).toBe('submitted'));
    await act(() => t.chat().stop()); // while it waits for the first run to end
    await waiting.done();
    const scenario = getScenario('completed-text');
    await t.send(`[scenario:completed-text] ${scenario.input} at last`);
    expect(t.chat().error).toBeUndefined();
    expect(visibleText(t.last())).toBe(scenario.expected.assistantText);
    const starts = t.recorder.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/runs'));
    // The first run and the last; the stopped message was never posted (and nothing met the live run: no 409).
    expect(starts.map((request) => request.body.includes('never sent'))).toEqual([false, false]);
    expect(starts).toHaveLength(2);
  });

  it('a message sent after stop() of a run whose start had not answered yet goes to the session that run named', async () => {
    // The first start's answer is slow to come: stop() lands before the run (and its session) is known.
    const { recorder, fetch: slowFirstStart } = slowFirstStartFetch();
    const sessions: string[] = [];
    const t = setup({
      client: { fetch: slowFirstStart },
      transport: { onAbort: 'cancel', onSessionId: ({ sessionId }) => sessions.push(sessionId) },
    });
    const sending = inBackground(() => t.chat().sendMessage({ text: '[scenario:completed-text] first' }));
    await waitFor(() => expect(t.chat().status).toBe('submitted'));
    await act(() => t.chat().stop());
    await sending.done();
    await t.send('[scenario:completed-text] second');
    await t.send('[scenario:completed-text] third');
    const starts = recorder.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/runs'));
    expect(starts.map((request) => request.path)).toEqual([
      '/v1/sessions/new/runs',
      `/v1/sessions/${sessions[0]}/runs`,
      `/v1/sessions/${sessions[0]}/runs`,
    ]);
    expect(sessions).toHaveLength(1);
  });

  it('an answer that does not fit the interaction is refused before anything is sent', async () => {
    const scenario = getScenario('waiting-choice-single');
    const t = setup();
    await t.send(`[scenario:waiting-choice-single] ${scenario.input}`);
    const requests = t.recorder.requests.length;
    await act(() => respondWithAnswer(t.chat(), scenario.invalidAnswer as { kind: 'choice'; selected: string[] }));
    expect(t.chat().status).toBe('error');
    expect(t.chat().error).toBeInstanceOf(InteractionAnswerError);
    expect(t.recorder.requests.length).toBe(requests);
    // The wait is intact: a good answer still continues the run.
    await act(() => respondWithAnswer(t.chat(), scenario.continuation!.answer));
    expect(t.chat().status).toBe('ready');
    expect(visibleText(t.last())).toBe(scenario.continuation!.expected.assistantText);
  });

  it('after a reload, the WAITING interaction in the saved messages is answered (checked against the result, then re-read from its events)', async () => {
    const scenario = getScenario('waiting-form');
    const before = setup({ chat: { id: 'chat-waiting-reload' } });
    await before.send(`[scenario:waiting-form] ${scenario.input}`);
    const saved = before.chat().messages;
    before.unmount();

    const after = setup({ chat: { id: 'chat-waiting-reload', messages: saved } });
    expect(pendingInteraction(after.chat().messages)?.interaction.kind).toBe('form');
    await act(() => respondWithAnswer(after.chat(), scenario.continuation!.answer));
    expect(after.chat().status).toBe('ready');
    expect(visibleText(after.last())).toBe(scenario.continuation!.expected.assistantText);
    expect(
      after.recorder.requests.map((request) => `${request.method} ${request.path.replace(/runs\/[^/]+/, 'runs/:id')}`),
    ).toEqual([
      'GET /v1/runs/:id/result',
      'GET /v1/runs/:id/events',
      `POST /v1/sessions/${dataOf(saved.at(-1)!, 'data-kestrel-status')!.sessionId}/interactions/int_form`,
    ]);
  });

  it('after a reload mid-stream, useChat({ resume: true }) resumes the run from the run store', async () => {
    const scenario = getScenario('completed-text');
    const runStore = createMemoryRunStore(); // an app would back this with sessionStorage
    const before = setup({ delayMs: 15, chat: { id: 'chat-stream-reload' }, transport: { runStore } });
    await stopMidStream(before, `[scenario:completed-text] ${scenario.input}`); // the page goes away: the transport detaches, the run goes on
    const saved = before.chat().messages;
    expect(dataOf(saved.at(-1)!, 'data-kestrel-status')?.phase).toBe('streaming');
    before.unmount();

    const after = setup({ chat: { id: 'chat-stream-reload', messages: saved, resume: true }, transport: { runStore } });
    await waitFor(() => expect(dataOf(after.last(), 'data-kestrel-status')?.phase).toBe('settled'));
    await waitFor(() => expect(after.chat().status).toBe('ready'));
    expect(after.chat().messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(visibleText(after.last())).toBe(scenario.expected.assistantText);
    expect(await runStore.get('chat-stream-reload')).toBeNull();
  });

  it('useChat really validates data parts with kestrelDataPartSchemas while streaming', async () => {
    const bad: ChatTransport<KestrelUIMessage> = {
      sendMessages: async () =>
        new ReadableStream<UIMessageChunk>({
          start(controller) {
            controller.enqueue({ type: 'start' });
            controller.enqueue({ type: 'data-kestrel-status', id: 'kestrel-status', data: { phase: 'finished' } });
            controller.enqueue({ type: 'finish' });
            controller.close();
          },
        }),
      reconnectToStream: async () => null,
    };
    const hook = renderHook(() =>
      useChat<KestrelUIMessage>({ transport: bad, dataPartSchemas: kestrelDataPartSchemas }),
    );
    await act(() => hook.result.current.sendMessage({ text: 'hi' }));
    expect(hook.result.current.status).toBe('error');
    expect(hook.result.current.error?.message).toMatch(/kestrel-status/);
  });
});

describe('the message useChat builds from the transport equals runStateToUIMessage of the same run', () => {
  for (const scenario of [...scenarios, failedAfterDraft()]) {
    it(`${scenario.name}`, async () => {
      const t = setup(
        scenario.usesInvoiceSchema
          ? { transport: { responseFormat: invoiceResponseFormat, payloadSchema: invoiceSchema } }
          : {},
      );
      await t.send(`[scenario:${scenario.name}] ${scenario.input}`);
      expect(t.ends).toHaveLength(1);
      const ended = t.ends[0]!;
      expect(t.chat().status).toBe(ended.phase === 'settled' ? 'ready' : 'error');
      expect(t.last()).toEqual(runStateToUIMessage(ended));
      expect(partsOf(t.last(), 'text').map((part) => part.text)).toEqual(
        ended.phase === 'settled' && ended.output!.assistantText ? [ended.output!.assistantText] : [],
      );
    });
  }
});
