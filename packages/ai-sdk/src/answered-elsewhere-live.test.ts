import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario, scenarios, type Scenario, type ScenarioStep } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTab, readReply, requestLines, status } from './chat-tabs.test-helper.js';
import type { KestrelUIMessage } from './data-part-schemas.js';
import { interactionAnswerMessage, messageText, pendingInteraction } from './interaction-answer.js';

/*
 * Two tabs on one chat while the other tab's answer is still streaming, or has led to a new question: the stale tab
 * shows what Kestrel is doing (never a 409, a silent wait or a skipped question) and says what it did not send.
 */

const scenario = getScenario('waiting-approval');
const approve = interactionAnswerMessage({ kind: 'approval', approved: true });
const decline = interactionAnswerMessage({ kind: 'approval', approved: false, comment: 'Not yet' });

/** waiting-approval whose answer leads to a second approval (the run waits again, on a new question). */
const secondWait = {
  status: 'WAITING',
  assistantText: 'One more question.',
  interaction: { id: 'int_second', kind: 'approval', prompt: 'Also copy the auditors?', action: 'email.send' },
} as const;
const continuation = scenario.continuation!;
const twoWaits: Scenario = {
  ...scenario,
  name: 'two-waits',
  continuation: {
    ...continuation,
    steps: continuation.steps.map((step): ScenarioStep =>
      step.kind === 'event' && step.event.type === 'run.completed'
        ? { ...step, event: { ...step.event, output: secondWait } }
        : step,
    ),
    expected: { ...continuation.expected, status: 'WAITING', assistantText: secondWait.assistantText },
  },
};

let kestrel: MockKestrel;
beforeAll(async () => {
  // Paced, so the answer's attempt is still streaming while the other tab acts.
  kestrel = await createMockKestrel({ eventDelayMs: 40, scenarios: [...scenarios, twoWaits] });
});
afterAll(() => kestrel.close());

/** Tab 1 starts a WAITING run of `name`; tab 2 loads the chat. */
async function waitingInBothTabs(name: string) {
  const tab1 = chatTab(kestrel);
  const waiting = await tab1.send('chat', [], `[scenario:${name}] ${scenario.input}`);
  const sessionId = tab1.sessionId();
  const loaded = await chatTab(kestrel).transport.loadChatHistory(sessionId);
  expect(pendingInteraction(loaded.messages)?.interaction.id).toBe('int_approval');
  return { tab1, waiting, sessionId, loaded: loaded.messages };
}

/** Tab 1 approves; its answer's attempt is streaming (not read to its end) when this resolves. */
async function approveInTab1(tab1: ReturnType<typeof chatTab>, messages: readonly KestrelUIMessage[]) {
  const { stream } = await tab1.open('chat', messages, approve.text, { metadata: approve.metadata });
  return readReply(stream);
}

describe('the other tab’s answer is still streaming', () => {
  it('an answer sent after a reload shows that attempt as it streams, once, marked not applied', async () => {
    const { tab1, waiting, sessionId, loaded } = await waitingInBothTabs('waiting-approval');
    let tab1Reply: Promise<KestrelUIMessage> | undefined;
    // Tab 1 approves at the very moment tab 2 replays the run: tab 2 replays tab 1's live attempt. The replay waits
    // until Kestrel took tab 1's answer (its attempt begun, not read to the end), so the order never depends on which
    // request's microtasks run first.
    const tab2 = chatTab(kestrel, {
      beforeReplay: async () => {
        const opened = tab1.open('chat', waiting.messages, approve.text, { metadata: approve.metadata });
        tab1Reply = opened.then(({ stream }) => readReply(stream));
        await opened;
      },
    });
    const { stream, sent } = await tab2.open(sessionId, loaded, decline.text, { metadata: decline.metadata });
    const reply = await readReply(stream);
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(messageText(reply)).toBe(continuation.expected.assistantText); // tab 1's approval, whole
    expect(reply.metadata).toEqual({ kestrelAnswerNotApplied: { interactionId: 'int_approval' } });
    expect(pendingInteraction([...sent, reply])).toBeNull();
    // One replay, followed as it streams: never a second one from the start, and the decline never went out.
    expect(requestLines(tab2.requests)).toEqual(['GET /v1/runs/:id/result', 'GET /v1/runs/:id/events']);
    await tab1Reply;
  });

  it('stop() while the replay has not shown yet whether the run still waits ends sendMessages with an AbortError', async () => {
    const { tab1, waiting, sessionId, loaded } = await waitingInBothTabs('waiting-approval');
    const stop = new AbortController();
    let tab1Reply: Promise<KestrelUIMessage> | undefined;
    const tab2 = chatTab(kestrel, {
      beforeReplay: async () => {
        tab1Reply = approveInTab1(tab1, waiting.messages);
        stop.abort(); // useChat's stop(), while tab 2's replay is on its way
      },
    });
    const sending = tab2.open(sessionId, loaded, decline.text, {
      metadata: decline.metadata,
      abortSignal: stop.signal,
    });
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
    expect(tab2.requests.filter((request) => request.method === 'POST')).toEqual([]);
    await tab1Reply;
  });

  it('a plain message is not sent (no 409): the chat shows that attempt, marked run-in-progress, and the stale question goes', async () => {
    const { tab1, waiting, sessionId, loaded } = await waitingInBothTabs('waiting-approval');
    const tab1Reply = approveInTab1(tab1, waiting.messages);
    await until(() =>
      tab1.requests.some((request) => request.method === 'POST' && request.path.includes('/interactions/')),
    );
    const tab2 = chatTab(kestrel);
    const { stream, sent } = await tab2.open(sessionId, loaded, 'Now draft the Q4 plan');
    const reply = await readReply(stream);
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(reply.metadata).toEqual({ kestrelMessageNotSent: { reason: 'run-in-progress' } });
    expect(pendingInteraction([...sent, reply])).toBeNull();
    expect(requestLines(tab2.requests)).toEqual(['GET /v1/runs/:id/result', 'GET /v1/runs/:id/events']);
    await tab1Reply;
  });
});

describe('the other tab’s answer led to a new question', () => {
  it('a plain message is not sent: the chat shows the new question, marked run-waiting, and it can be answered', async () => {
    const { tab1, waiting, sessionId, loaded } = await waitingInBothTabs('two-waits');
    const answered = await approveInTab1(tab1, waiting.messages);
    expect(status(answered)).toMatchObject({ status: 'WAITING', attempt: 2 });
    const tab2 = chatTab(kestrel);
    const { stream, sent } = await tab2.open(sessionId, loaded, 'Now draft the Q4 plan');
    const reply = await readReply(stream);
    expect(status(reply)).toMatchObject({ status: 'WAITING', attempt: 2 });
    expect(reply.metadata).toEqual({ kestrelMessageNotSent: { reason: 'run-waiting' } });
    const messages = [...sent, reply];
    expect(pendingInteraction(messages)?.interaction.id).toBe('int_second');
    expect(tab2.requests.filter((request) => request.method === 'POST')).toEqual([]); // no new run beside the wait
    // The new question is tab 2's to answer now: the answer goes out and the run goes on past it.
    tab2.requests.length = 0;
    const second = await tab2.send(sessionId, messages, approve.text, approve.metadata);
    expect(requestLines(tab2.requests)).toEqual(['POST /v1/sessions/:id/interactions/int_second']);
    expect(status(second.reply)).toMatchObject({ phase: 'settled' });
    expect(status(second.reply)!.lastSeq).toBeGreaterThan(status(reply)!.lastSeq);
    expect(second.reply.metadata).toBeUndefined();
  });
});

describe('a server that forgot the interaction the run still waits on', () => {
  it('the refused answer is a clear answer-refused error, not a replay of the same question', async () => {
    // Every answer goes to an interaction id the server does not know: 404 interaction_not_found, the run still waits.
    const forgetful = chatTab(kestrel, {
      rewrite: (url, method) =>
        method === 'POST' ? url.replace('/interactions/int_approval', '/interactions/int_gone') : url,
    });
    const waitingHere = await forgetful.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    expect(pendingInteraction(waitingHere.messages)?.interaction.id).toBe('int_approval');
    forgetful.requests.length = 0;
    const refused = forgetful.open('chat', waitingHere.messages, approve.text, { metadata: approve.metadata });
    await expect(refused).rejects.toMatchObject({ name: 'KestrelChatError', reason: 'answer-refused' });
    expect(requestLines(forgetful.requests)).toEqual([
      'POST /v1/sessions/:id/interactions/int_approval',
      'GET /v1/runs/:id/result',
    ]);
  });
});

/** Resolves once `done()` holds, checking every few milliseconds (bounded: a test's own timeout ends it). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}
