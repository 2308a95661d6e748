import { createRunClient, type RunClient } from '@kestrel/core';
import type { MockKestrel } from '@kestrel/server/mock';
import { recordingFetch } from '@kestrel/testing';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessageChunk } from 'ai';
import { expect } from 'vitest';
import type { KestrelMessageMetadata, KestrelStatusData, KestrelUIMessage } from './data-part-schemas.js';
import { kestrelStatusOf } from './interaction-answer.js';
import { KestrelChatTransport } from './kestrel-chat-transport.js';

/** How a tab's requests differ from plain ones. */
export interface TabOptions {
  /** Runs before the tab's first `GET /events` goes out (another tab acting at that very moment). */
  readonly beforeReplay?: () => Promise<void>;
  /** Rewrites a request's URL before it goes out (a server that behaves differently for it). */
  readonly rewrite?: (url: string, method: string) => string;
}

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** A browser tab on one chat: its own transport and client over the loopback mock Kestrel, with its requests. */
export function chatTab(kestrel: MockKestrel, options: TabOptions = {}) {
  let pending = options.beforeReplay;
  const recorder = recordingFetch(async (input, init) => {
    const before = pending;
    if (before !== undefined && urlOf(input).endsWith('/events')) {
      pending = undefined;
      await before();
    }
    const method = (init?.method ?? 'GET').toUpperCase();
    return fetch(options.rewrite === undefined ? input : options.rewrite(urlOf(input), method), init);
  });
  const client: RunClient = createRunClient({ baseUrl: kestrel.url, fetch: recorder.fetch });
  let named: string | undefined;
  const transport = new KestrelChatTransport({ client, onSessionId: ({ sessionId }) => (named ??= sessionId) });
  let next = 0;
  /** `sendMessages` for one more user message, as `useChat` calls it. */
  const open = async (
    chatId: string,
    messages: readonly KestrelUIMessage[],
    text: string,
    extra: { readonly metadata?: KestrelMessageMetadata; readonly abortSignal?: AbortSignal } = {},
  ) => {
    const user: KestrelUIMessage = {
      id: `user-${(next += 1)}`,
      role: 'user',
      parts: [{ type: 'text', text }],
      ...(extra.metadata === undefined ? {} : { metadata: extra.metadata }),
    };
    const stream = await transport.sendMessages({
      chatId,
      messages: [...messages, user],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: extra.abortSignal,
    });
    return { stream, sent: [...messages, user] };
  };
  /** What `useChat` does for one user message: send the chat, read the reply to its end. */
  const send = async (
    chatId: string,
    messages: readonly KestrelUIMessage[],
    text: string,
    metadata?: KestrelMessageMetadata,
  ) => {
    const { stream, sent } = await open(chatId, messages, text, metadata === undefined ? {} : { metadata });
    const reply = await readReply(stream);
    return { reply, messages: [...sent, reply] };
  };
  return { transport, open, send, requests: recorder.requests, sessionId: () => named ?? '' };
}

/** Reads a reply stream to its end as `useChat` does, checking every chunk against the AI SDK's own wire schema. */
export async function readReply(stream: ReadableStream<UIMessageChunk>): Promise<KestrelUIMessage> {
  const [forReader, forWire] = stream.tee();
  let reply: KestrelUIMessage | undefined;
  for await (const message of readUIMessageStream<KestrelUIMessage>({ stream: forReader, terminateOnError: true }))
    reply = message;
  const wire = uiMessageChunkSchema();
  for await (const chunk of forWire as unknown as AsyncIterable<UIMessageChunk>)
    expect(await wire.validate?.(chunk), chunk.type).toMatchObject({ success: true });
  if (reply === undefined) throw new Error('the transport streamed no message');
  return reply;
}

export const status = (message: KestrelUIMessage): KestrelStatusData | undefined => kestrelStatusOf(message);
export const requestLines = (requests: readonly { method: string; path: string }[]) =>
  requests.map((request) => `${request.method} ${request.path.replace(/(runs|sessions)\/[^/]+/, '$1/:id')}`);
