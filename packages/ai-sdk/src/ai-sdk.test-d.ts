import type { Interaction, RunError, RunPhase } from '@kestrel/core';
import type { Invoice } from '@kestrel/testing';
import type { ChatInit, ChatTransport } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  createKestrelDataPartSchemas,
  kestrelDataPartSchemas,
  type KestrelChatErrorReason,
  type KestrelChatTransport,
  type KestrelDataPartSchemas,
  type KestrelDraftData,
  type KestrelErrorData,
  type KestrelMessageMetadata,
  type KestrelMessageNotSentReason,
  type KestrelStatusData,
  type KestrelUIMessage,
  type kestrelDraftDataSchema,
  type kestrelErrorDataSchema,
  type kestrelInteractionDataSchema,
} from './index.js';

describe('@kestrel/ai-sdk types', () => {
  it('the transport is an AI SDK ChatTransport for Kestrel messages', () => {
    expectTypeOf<KestrelChatTransport>().toExtend<ChatTransport<KestrelUIMessage>>();
  });

  it('the data part schemas fit useChat', () => {
    expectTypeOf(kestrelDataPartSchemas).toExtend<NonNullable<ChatInit<KestrelUIMessage>['dataPartSchemas']>>();
    expectTypeOf<KestrelDataPartSchemas<Invoice>>().toExtend<
      NonNullable<ChatInit<KestrelUIMessage<Invoice>>['dataPartSchemas']>
    >();
    expectTypeOf(createKestrelDataPartSchemas<Invoice>).returns.toEqualTypeOf<KestrelDataPartSchemas<Invoice>>();
  });

  it('a payload schema types the payload part', () => {
    type PayloadPart = Extract<KestrelUIMessage<Invoice>['parts'][number], { type: 'data-kestrel-payload' }>;
    expectTypeOf<Extract<PayloadPart['data'], { status: 'valid' }>['value']>().toEqualTypeOf<Invoice>();
  });

  it('the data types are the core types the parts carry', () => {
    expectTypeOf<KestrelStatusData['phase']>().toEqualTypeOf<RunPhase>();
    expectTypeOf<Extract<KestrelErrorData, { source: 'client' }>['error']>().toEqualTypeOf<RunError>();
    expectTypeOf<z.output<typeof kestrelInteractionDataSchema>['interaction']>().toExtend<Interaction>();
    expectTypeOf<z.output<typeof kestrelErrorDataSchema>>().toExtend<KestrelErrorData>();
    expectTypeOf<z.output<typeof kestrelDraftDataSchema>>().toExtend<KestrelDraftData>();
  });

  it('a settled draft has no text to render', () => {
    type DraftPart = Extract<KestrelUIMessage['parts'][number], { type: 'data-kestrel-draft' }>;
    expectTypeOf<Extract<DraftPart['data'], { state: 'settled' }>>().not.toHaveProperty('text');
  });

  it('a reply says why the message before it was not sent, as a string union', () => {
    expectTypeOf<KestrelMessageNotSentReason>().toEqualTypeOf<'run-in-progress' | 'run-waiting'>();
    expectTypeOf<NonNullable<KestrelMessageMetadata['kestrelMessageNotSent']>>().toEqualTypeOf<{
      readonly reason: KestrelMessageNotSentReason;
    }>();
    expectTypeOf<'answer-refused'>().toExtend<KestrelChatErrorReason>();
    expectTypeOf<'run-gone'>().toExtend<KestrelChatErrorReason>();
  });
});
