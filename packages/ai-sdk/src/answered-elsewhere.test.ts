import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTab, readReply, requestLines, status, type TabOptions } from './chat-tabs.test-helper.js';
import type { KestrelUIMessage } from './data-part-schemas.js';
import { interactionAnswerMessage, messageText, pendingInteraction } from './interaction-answer.js';
import { KestrelChatError } from './kestrel-chat-error.js';

/*
 * Two tabs (or devices) on one chat: tab 1 answers the WAITING approval, tab 2 loaded the chat before that and
 * still shows the question. Tab 2 must never be stuck: Kestrel, not its stale copy, says whether the run waits.
 */

const scenario = getScenario('waiting-approval');
const approve = interactionAnswerMessage({ kind: 'approval', approved: true });
const decline = interactionAnswerMessage({ kind: 'approval', approved: false, comment: 'Not yet' });

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel({ stallMs: 20 });
});
afterAll(() => kestrel.close());

const tab = (options?: TabOptions) => chatTab(kestrel, options);

/** Tab 1 starts a WAITING run; tab 2 loads the chat; tab 1 approves. Returns both tabs and what each holds. */
async function answeredInTab1() {
  const tab1 = tab();
  const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
  const sessionId = tab1.sessionId();
  const tab2 = tab();
  const loaded = await tab2.transport.loadChatHistory(sessionId);
  expect(pendingInteraction(loaded.messages)?.interaction.id).toBe('int_approval');
  const answered = await tab1.send('chat', waiting.messages, approve.text, approve.metadata);
  expect(status(answered.reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
  return { tab1, tab2, sessionId, waiting, loaded };
}

describe('a chat whose interaction was answered elsewhere can go on', () => {
  it('a plain message in the other tab is a new run in the same session, once Kestrel says the run no longer waits', async () => {
    const { tab2, sessionId, loaded } = await answeredInTab1();
    tab2.requests.length = 0;
    const { reply, messages } = await tab2.send(sessionId, loaded.messages, 'Now draft the Q4 plan');
    expect(status(reply)).toMatchObject({ phase: 'settled', status: 'COMPLETED', sessionId });
    expect(status(reply)?.runId).not.toBe(status(loaded.messages.at(-1)!)?.runId);
    expect(pendingInteraction(messages)).toBeNull();
    expect(requestLines(tab2.requests)).toEqual(['GET /v1/runs/:id/result', 'POST /v1/sessions/:id/runs']);
  });

  it('an answer in the other tab shows what really happened (the run’s newest attempt), marked as not applied', async () => {
    const { tab2, sessionId, loaded } = await answeredInTab1();
    tab2.requests.length = 0;
    const { reply, messages } = await tab2.send(sessionId, loaded.messages, decline.text, decline.metadata);
    expect(status(reply)).toMatchObject({ phase: 'settled', status: 'COMPLETED', attempt: 2 });
    expect(messageText(reply)).toBe(scenario.continuation!.expected.assistantText); // tab 1's approval, not this decline
    expect(reply.metadata).toEqual({ kestrelAnswerNotApplied: { interactionId: 'int_approval' } });
    expect(pendingInteraction(messages)).toBeNull();
    expect(requestLines(tab2.requests)).toEqual(['GET /v1/runs/:id/result', 'GET /v1/runs/:id/events']);
    // And the chat is free: its next message is a new run in the session.
    const next = await tab2.send(sessionId, messages, 'Thanks');
    expect(status(next.reply)).toMatchObject({ status: 'COMPLETED', sessionId, attempt: 1 });
  });

  it('the tab holding the WAITING handle learns from Kestrel’s refusal (409 interaction_answered), checks the run moved on, and follows the newest attempt', async () => {
    const tab1 = tab();
    const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    const sessionId = tab1.sessionId();
    const tab2 = tab();
    const loaded = await tab2.transport.loadChatHistory(sessionId);
    await tab2.send(sessionId, loaded.messages, approve.text, approve.metadata); // tab 2 answers first
    tab1.requests.length = 0;
    const { reply, messages } = await tab1.send('chat', waiting.messages, decline.text, decline.metadata);
    expect(requestLines(tab1.requests)).toEqual([
      'POST /v1/sessions/:id/interactions/int_approval',
      'GET /v1/runs/:id/result',
      'GET /v1/runs/:id/events',
    ]);
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(reply.metadata).toEqual({ kestrelAnswerNotApplied: { interactionId: 'int_approval' } });
    expect(pendingInteraction(messages)).toBeNull();
  });

  it('the tab holding the WAITING handle asks Kestrel before refusing a plain message, and sends it once the run moved on', async () => {
    const { tab1, sessionId, waiting } = await answeredInTab1();
    // Tab 1 sends from its view before its own answer came back (the WAITING message last): stale, like another tab's.
    tab1.requests.length = 0;
    const { reply } = await tab1.send('chat', waiting.messages, 'Now draft the Q4 plan');
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', sessionId, attempt: 1 });
    expect(requestLines(tab1.requests)).toEqual(['GET /v1/runs/:id/result', 'POST /v1/sessions/:id/runs']);
  });

  it('an answer given elsewhere between the result check and the replay still shows the newest attempt', async () => {
    const tab1 = tab();
    const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    const sessionId = tab1.sessionId();
    const loaded = await tab().transport.loadChatHistory(sessionId);
    const tab2 = tab({
      beforeReplay: async () => void (await tab1.send('chat', waiting.messages, approve.text, approve.metadata)),
    });
    const { reply, messages } = await tab2.send(sessionId, loaded.messages, decline.text, decline.metadata);
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(reply.metadata).toEqual({ kestrelAnswerNotApplied: { interactionId: 'int_approval' } });
    expect(pendingInteraction(messages)).toBeNull();
    expect(tab2.requests.filter((request) => request.method === 'POST')).toEqual([]); // the decline never went out
  });

  it('a plain message is still refused with answer-required while the run really waits, and the wait stays answerable', async () => {
    const tab1 = tab();
    const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    const tab2 = tab();
    const loaded = await tab2.transport.loadChatHistory(tab1.sessionId());
    tab2.requests.length = 0;
    const refused = tab2.send(tab1.sessionId(), loaded.messages, 'yes please');
    await expect(refused).rejects.toBeInstanceOf(KestrelChatError);
    await expect(refused).rejects.toMatchObject({ reason: 'answer-required' });
    expect(requestLines(tab2.requests)).toEqual(['GET /v1/runs/:id/result']); // asked, nothing started or answered
    const answered = await tab1.send('chat', waiting.messages, approve.text, approve.metadata);
    expect(answered.reply.metadata).toBeUndefined();
    expect(status(answered.reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
  });
});

describe('regenerate() of the reply to an answer', () => {
  /** What `useChat().regenerate()` sends: the chat without its last reply, ending with the user's answer. */
  const regenerate = (tab: ReturnType<typeof chatTab>, chatId: string, messages: readonly KestrelUIMessage[]) =>
    tab.transport.sendMessages({
      chatId,
      messages: [...messages],
      trigger: 'regenerate-message',
      messageId: undefined,
      abortSignal: undefined,
    });

  it('does not send the answer again once the run took it: the reply comes back (useChat removed it), marked not applied', async () => {
    const tab1 = tab();
    const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    const answered = await tab1.send('chat', waiting.messages, approve.text, approve.metadata);
    expect(status(answered.reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    tab1.requests.length = 0;
    const reply = await readReply(await regenerate(tab1, 'chat', answered.messages.slice(0, -1)));
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(messageText(reply)).toBe(messageText(answered.reply));
    expect(reply.metadata).toEqual({ kestrelAnswerNotApplied: { interactionId: 'int_approval' } });
    expect(requestLines(tab1.requests)).toEqual(['GET /v1/runs/:id/result', 'GET /v1/runs/:id/events']);
  });

  it('sends the answer while the run still waits on it (it never reached Kestrel)', async () => {
    const tab1 = tab();
    const waiting = await tab1.send('chat', [], `[scenario:waiting-approval] ${scenario.input}`);
    const user: KestrelUIMessage = {
      id: 'user-answer',
      role: 'user',
      parts: [{ type: 'text', text: approve.text }],
      metadata: approve.metadata,
    };
    const reply = await readReply(await regenerate(tab1, 'chat', [...waiting.messages, user]));
    expect(status(reply)).toMatchObject({ status: 'COMPLETED', attempt: 2 });
    expect(reply.metadata).toBeUndefined();
  });
});
