import { interactionAnswerSchema, type Interaction, type InteractionAnswer } from '@kestrel/core';
import type { UIMessage } from 'ai';
import { z } from 'zod';
import type { KestrelInteractionData, KestrelMessageMetadata, KestrelStatusData } from './data-part-schemas.js';

type AnyPart = UIMessage['parts'][number];

function dataOf<T>(message: UIMessage, type: string): T | undefined {
  const part = message.parts.find((candidate: AnyPart) => candidate.type === type) as { data?: T } | undefined;
  return part?.data;
}

/** The Kestrel status a message carries, if it is a Kestrel run's message. */
export function kestrelStatusOf(message: UIMessage): KestrelStatusData | undefined {
  return dataOf<KestrelStatusData>(message, 'data-kestrel-status');
}

/**
 * The interaction a chat is waiting on: the latest assistant message is a Kestrel run settled WAITING. User
 * messages after it (an answer that was refused) do not end the wait. `null` when the chat is free for a new
 * question. Render an answer form from it, then answer with {@link respondWithAnswer}. It reads only the messages:
 * when the question was answered elsewhere, the transport learns it from Kestrel and the chat moves on.
 *
 * @example
 * const waiting = pendingInteraction(messages);
 * if (waiting?.interaction.kind === 'approval') showApproval(waiting.interaction);
 */
export function pendingInteraction(messages: readonly UIMessage[]): KestrelInteractionData | null {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (last === undefined) return null;
  const status = kestrelStatusOf(last);
  if (status?.phase !== 'settled' || status.status !== 'WAITING') return null;
  return dataOf<KestrelInteractionData>(last, 'data-kestrel-interaction') ?? null;
}

/** The Kestrel session the chat's latest run belongs to, so the next run continues the same conversation. */
export function lastKestrelSession(messages: readonly UIMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const sessionId = kestrelStatusOf(messages[index]!)?.sessionId;
    if (typeof sessionId === 'string') return sessionId;
  }
  return undefined;
}

/** The text of a message's text parts, joined. */
export function messageText(message: UIMessage): string {
  return message.parts
    .filter((part: AnyPart): part is Extract<AnyPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** A short line for the chat transcript saying what was answered. */
export function describeAnswer(answer: InteractionAnswer, interaction?: Interaction): string {
  switch (answer.kind) {
    case 'approval':
      return `${answer.approved ? 'Approved' : 'Declined'}${answer.comment ? `: ${answer.comment}` : ''}`;
    case 'choice': {
      const options = interaction?.kind === 'choice' ? interaction.options : [];
      return `Selected: ${answer.selected.map((id) => options.find((option) => option.id === id)?.label ?? id).join(', ')}`;
    }
    case 'text':
      return answer.text;
    case 'form':
      return Object.entries(answer.values)
        .map(([name, value]) => `${name}: ${String(value)}`)
        .join(', ');
    default:
      return answer satisfies never;
  }
}

/**
 * What to pass to `sendMessage` to answer the pending interaction: a readable line for the transcript and the
 * structured answer in the message's metadata, which the transport sends to Kestrel.
 *
 * @example
 * sendMessage(interactionAnswerMessage({ kind: 'approval', approved: true }));
 */
export function interactionAnswerMessage(
  answer: InteractionAnswer,
  options: { readonly text?: string; readonly interaction?: Interaction } = {},
): { text: string; metadata: KestrelMessageMetadata } {
  return { text: options.text ?? describeAnswer(answer, options.interaction), metadata: { kestrelAnswer: answer } };
}

/**
 * Answers the interaction the chat is waiting on, through `useChat`'s `sendMessage`.
 *
 * @example
 * const chat = useChat<KestrelUIMessage>({ transport });
 * await respondWithAnswer(chat, { kind: 'choice', selected: ['fr8341'] });
 */
export function respondWithAnswer<M extends UIMessage>(
  chat: {
    readonly sendMessage: (message: { text: string; metadata?: M['metadata'] }) => Promise<void>;
    readonly messages?: readonly M[];
  },
  answer: InteractionAnswer,
  options: { readonly text?: string } = {},
): Promise<void> {
  const interaction = chat.messages === undefined ? undefined : pendingInteraction(chat.messages)?.interaction;
  const message = interactionAnswerMessage(answer, {
    ...options,
    ...(interaction === undefined ? {} : { interaction }),
  });
  return chat.sendMessage(message as { text: string; metadata?: M['metadata'] });
}

/**
 * The structured answer a user message carries in `metadata.kestrelAnswer`, checked; `undefined` when none.
 * @throws {z.ZodError} when it is not an answer (classic `z.parse`: core's schemas are zod/mini, whose own parse throws a bare `$ZodError`).
 */
export function answerFromMetadata(message: UIMessage): InteractionAnswer | undefined {
  const raw = (message.metadata as KestrelMessageMetadata | undefined)?.kestrelAnswer;
  if (raw === undefined) return undefined;
  return z.parse(interactionAnswerSchema, raw);
}
