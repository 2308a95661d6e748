import { createRunClient } from '@kestrel/core';
import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getConversation } from '@kestrel/testing';
import type { UIMessage, UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChatHistory } from './chat-history.js';
import type { KestrelUIMessage } from './data-part-schemas.js';
import { messageText } from './interaction-answer.js';
import { KestrelChatTransport } from './kestrel-chat-transport.js';

const servers: MockKestrel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function kestrel(options: Parameters<typeof createMockKestrel>[0] = {}) {
  const server = await createMockKestrel({ stallMs: 20, ...options });
  servers.push(server);
  return server;
}

async function drain(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

const user = (id: string, text: string): KestrelUIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const lines = (messages: readonly UIMessage[]) => messages.map((message) => `${message.role}: ${messageText(message)}`);

describe('a useChat chat is one Kestrel session', () => {
  it('tells the app the session of a new chat once, and sends the chat’s next message into it', async () => {
    const server = await kestrel();
    const client = createRunClient({ baseUrl: server.url });
    const heard: { chatId: string; sessionId: string }[] = [];
    const transport = new KestrelChatTransport({ client, onSessionId: (named) => heard.push(named) });
    const send = (messages: KestrelUIMessage[]) =>
      transport.sendMessages({
        chatId: 'chat-1',
        messages,
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      });
    await drain(await send([user('m1', 'first')]));
    // No Kestrel message in the history passed (an app that keeps only user messages): the chat's session is used.
    await drain(await send([user('m1', 'first'), user('m2', 'second')]));
    expect(heard).toEqual([{ chatId: 'chat-1', sessionId: expect.stringMatching(/^ses_/) }]);
    const history = await transport.loadChatHistory('chat-1');
    expect(history.status).toBe('complete');
    expect(lines(history.messages).filter((line) => line.startsWith('user'))).toEqual(['user: first', 'user: second']);
  });

  it('loadChatHistory reads a conversation back as messages: input, the answer given, the outcome, in order', async () => {
    const server = await kestrel();
    const client = createRunClient({ baseUrl: server.url });
    const [ask, followUp] = getConversation('flight-then-hotel').turns;
    if (ask?.answer === undefined || followUp === undefined) throw new Error('the conversation asks, then follows up');
    const first = client.start({ input: ask.message });
    await first.result;
    await (
      await first.respond(ask.answer)
    ).result;
    const sessionId = first.getState().sessionId ?? '';
    await client.start({ sessionId, input: followUp.message }).result;

    const history = await loadChatHistory({ client, sessionId });
    expect(history).toMatchObject({ status: 'complete', liveRunId: null });
    expect(lines(history.messages)).toEqual([
      `user: ${ask.message}`,
      'user: Selected: fr8341', // the listing keeps the answer, not the question it answered
      `assistant: ${ask.finalText}`,
      `user: ${followUp.message}`,
      `assistant: ${followUp.finalText}`,
    ]);
    expect(history.messages[1]?.metadata).toEqual({ kestrelAnswer: ask.answer });
  });

  it('says a chat with no session is new, and a server without the listing unavailable, without failing', async () => {
    const server = await kestrel({ listing: false });
    const client = createRunClient({ baseUrl: server.url });
    expect(await loadChatHistory({ client, sessionId: 'ses_1' })).toEqual({
      messages: [],
      status: 'unavailable',
      liveRunId: null,
    });
    const withListing = await kestrel();
    const other = createRunClient({ baseUrl: withListing.url });
    expect((await loadChatHistory({ client: other, sessionId: 'chat-random' })).status).toBe('not-found');
  });

  it('reads at most maxRuns of a long session, saying more exist', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_long', runs: 250 }] });
    const client = createRunClient({ baseUrl: server.url });
    const history = await loadChatHistory({ client, sessionId: 'ses_long', maxRuns: 120 });
    expect(history.status).toBe('more');
    expect(history.messages).toHaveLength(240);
    expect(messageText(history.messages.at(-2) as UIMessage)).toMatch(/\(#250\)$/);
    await expect(loadChatHistory({ client, sessionId: 'ses_long', maxRuns: 0 })).rejects.toThrow(RangeError);
  });

  it('re-attaches to the live run it finds, through resumeStream', async () => {
    const server = await kestrel();
    const client = createRunClient({ baseUrl: server.url, headers: { 'x-kestrel-delay': '10' } });
    const live = client.start({ input: 'a slow one' });
    await new Promise<void>((resolve) => live.subscribe(() => live.getState().runId !== null && resolve()));
    live.detach();
    const sessionId = live.getState().sessionId ?? '';
    const transport = new KestrelChatTransport({ client });
    const history = await transport.loadChatHistory(sessionId);
    expect(history.liveRunId).toBe(live.getState().runId);
    expect(lines(history.messages)).toEqual(['user: a slow one']);
    const stream = await transport.reconnectToStream({ chatId: sessionId });
    const chunks = await drain(stream ?? new ReadableStream());
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
  });
});
