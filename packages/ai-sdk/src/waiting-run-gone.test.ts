import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTab, status } from './chat-tabs.test-helper.js';
import { interactionAnswerMessage, pendingInteraction } from './interaction-answer.js';

/*
 * The chat's WAITING run is gone from Kestrel (expired or deleted: /result and /events answer 404 run_not_found).
 * The chat must not be stuck behind it: a plain message starts a new run in the session; an explicit answer to it
 * is a clear error, and nothing is sent.
 */

const scenario = getScenario('waiting-approval');
const approve = interactionAnswerMessage({ kind: 'approval', approved: true });

let kestrel: MockKestrel;
beforeAll(async () => {
  kestrel = await createMockKestrel();
});
afterAll(() => kestrel.close());

/** A run URL sent to a run Kestrel does not know. */
const toGoneRun = (url: string) => url.replace(/\/v1\/runs\/[^/]+\//, '/v1/runs/run_gone/');

/** A chat whose WAITING run Kestrel forgets once `forget()` is called: its run URLs then reach an unknown run. */
async function chatWithGoneRun(name = scenario.name) {
  let gone = false;
  const tab = chatTab(kestrel, { rewrite: (url) => (gone ? toGoneRun(url) : url) });
  const waiting = await tab.send('chat', [], `[scenario:${name}] ${scenario.input}`);
  expect(pendingInteraction(waiting.messages)).not.toBeNull();
  gone = true;
  return { tab, messages: waiting.messages, sessionId: tab.sessionId(), before: tab.requests.length };
}

/** The chat in a new page, where every run URL reaches an unknown run. */
const reloadedTab = () =>
  chatTab(kestrel, { rewrite: (url) => url.replace(/\/v1\/runs\/[^/]+\//, '/v1/runs/run_gone/') });

describe('a chat whose WAITING run Kestrel no longer has', () => {
  it('sends a plain message as a new run in the same session, which completes', async () => {
    const { tab, messages, sessionId, before } = await chatWithGoneRun();
    const { reply } = await tab.send('chat', messages, 'Something else entirely');
    expect(status(reply)).toMatchObject({ phase: 'settled', status: 'COMPLETED', sessionId });
    expect(reply.metadata?.kestrelMessageNotSent).toBeUndefined();
    const sent = tab.requests.slice(before).filter((request) => request.method === 'POST');
    expect(sent.map((request) => request.path)).toEqual([`/v1/sessions/${sessionId}/runs`]);
  });

  it('sends the text typed under a text question (after a reload) as a new run: the question cannot be answered', async () => {
    const { messages, sessionId } = await chatWithGoneRun('waiting-text');
    expect(pendingInteraction(messages)?.interaction.kind).toBe('text');
    const reloaded = reloadedTab();
    const { reply } = await reloaded.send('chat', messages, 'Please fix the heating by Friday.');
    expect(status(reply)).toMatchObject({ phase: 'settled', status: 'COMPLETED', sessionId });
    const sent = reloaded.requests.filter((request) => request.method === 'POST');
    expect(sent.map((request) => request.path)).toEqual([`/v1/sessions/${sessionId}/runs`]);
  });

  it('refuses an explicit answer (after a reload) with a run-gone KestrelChatError naming the run; nothing is posted', async () => {
    const { messages } = await chatWithGoneRun();
    const runId = pendingInteraction(messages)!.runId;
    const reloaded = reloadedTab();
    await expect(reloaded.open('chat', messages, approve.text, { metadata: approve.metadata })).rejects.toMatchObject({
      name: 'KestrelChatError',
      reason: 'run-gone',
      message: expect.stringContaining(runId),
    });
    expect(reloaded.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});
