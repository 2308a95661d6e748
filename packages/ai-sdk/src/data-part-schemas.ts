import {
  approvalInteractionSchema,
  type CancelledOutput,
  type FailedOutput,
  type InteractionAnswer,
  type PayloadIssue,
  type PayloadSchema,
  type RunError,
  choiceInteractionSchema,
  formInteractionSchema,
  textInteractionSchema,
  type Interaction,
} from '@kestrel/core';
import type { FlexibleSchema, UIMessage } from 'ai';
import { z } from 'zod';

/*
 * The data parts a Kestrel run adds to an AI SDK message. Each names one fact the AI SDK has no part for, so that
 * WAITING, FAILED, CANCELLED and the payload stay distinct instead of collapsing into text. The schemas validate
 * the parts as they appear on a message (after the core has parsed the wire), which is why the interaction
 * schema accepts the core's `unsupported` form rather than re-running the wire transform.
 */

const runPhaseSchema = z.enum(['idle', 'connecting', 'streaming', 'reconnecting', 'settled', 'detached', 'error']);
const outputStatusSchema = z.enum(['COMPLETED', 'FAILED', 'CANCELLED', 'WAITING']);

/** `data-kestrel-status`: where the run is. One per message, updated in place (same part id) as the run moves. */
export const kestrelStatusDataSchema = z.object({
  runId: z.string().nullable(),
  sessionId: z.string().nullable(),
  attempt: z.number().int().nullable(),
  phase: runPhaseSchema,
  /** The output status once settled; `null` before (no outcome yet) and after a client-side error. */
  status: outputStatusSchema.nullable(),
  lastSeq: z.number().int().min(0),
});

/**
 * `data-kestrel-finish`: the run-level finish reason (docs/protocol.md#finishreason): the kind of the last root-session
 * `turn/end` in the run interval, `null` when no root turn ended there. A message has no such part when the finish
 * reason is not known (a run read from its result alone) or the run reached no outcome.
 */
export const kestrelFinishDataSchema = z.object({ finishReason: z.string().nullable() });

/**
 * `data-kestrel-draft`: the text the run streams before it settles. Motion, never the answer, so it is a data
 * part rather than a `text` part, replaced in place (same part id) as it grows. `streaming`: the run may still
 * change it. `interrupted`: the stream failed before an outcome and this is as far as it got. `detached`: the
 * client stopped following the run. `settled`: the run reached an outcome, the draft is withdrawn (it carries no
 * text) and the message's `text` part, if any, is the settled `output.assistantText`.
 */
export const kestrelDraftDataSchema = z.discriminatedUnion('state', [
  z.object({ state: z.enum(['streaming', 'interrupted', 'detached']), text: z.string().min(1) }),
  z.object({ state: z.literal('settled') }),
]);

const unsupportedInteractionPartSchema = z.looseObject({
  id: z.string().min(1),
  prompt: z.string(),
  expiresAt: z.string().optional(),
  kind: z.literal('unsupported'),
  originalKind: z.string(),
});

/** `data-kestrel-interaction`: the question a WAITING run asks; the next user message (or an explicit answer) answers it. */
export const kestrelInteractionDataSchema = z.object({
  runId: z.string(),
  sessionId: z.string(),
  /** The seq of the WAITING `run.completed`: the next attempt's events follow it. */
  seq: z.number().int().positive(),
  interaction: z.discriminatedUnion('kind', [
    approvalInteractionSchema,
    choiceInteractionSchema,
    textInteractionSchema,
    formInteractionSchema,
    unsupportedInteractionPartSchema,
  ]),
});

const issuePathSchema = z.array(z.union([z.string(), z.number()]));

const clientErrorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('transport'), message: z.string() }),
  z.object({ kind: z.literal('truncated'), message: z.string(), lastSeq: z.number().int() }),
  z.object({
    kind: z.literal('protocol'),
    message: z.string(),
    eventType: z.string().nullable(),
    seq: z.number().int().nullable(),
    path: issuePathSchema,
    raw: z.unknown(),
  }),
  z.object({ kind: z.literal('http'), message: z.string(), status: z.number().int(), code: z.string().nullable() }),
  z.object({ kind: z.literal('timeout'), message: z.string(), timeoutMs: z.number() }),
]);

/**
 * `data-kestrel-error`: either the evidence of a FAILED output (`source: 'output'`, a run outcome) or what went
 * wrong on the way to an outcome (`source: 'client'`, no outcome at all). The two are never the same thing.
 */
export const kestrelErrorDataSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('output'),
    error: z.looseObject({ code: z.string(), message: z.string(), retryable: z.boolean().optional() }),
  }),
  z.object({ source: z.literal('client'), error: clientErrorSchema }),
]);

/** `data-kestrel-cancellation`: why a CANCELLED run stopped, and who stopped it. */
export const kestrelCancellationDataSchema = z.looseObject({
  reason: z.string(),
  by: z.enum(['user', 'system']).optional(),
});

/**
 * `data-kestrel-progress`: the run's latest progress report. Streamed as a transient part: `useChat` hands it to
 * `onData` and does not keep it on the message, because a finished message has no progress to show.
 */
export const kestrelProgressDataSchema = z.object({ label: z.string(), fraction: z.number().min(0).max(1).nullable() });

/**
 * `data-kestrel-payload`: the finalized structured output of a COMPLETED run, checked against the app's schema.
 * An invalid payload keeps its raw value and the issues. It is never turned into text.
 */
export const kestrelPayloadDataSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('valid'), value: z.unknown() }),
  z.object({
    status: z.literal('invalid'),
    raw: z.unknown(),
    issues: z.array(z.object({ path: issuePathSchema, message: z.string() })),
  }),
]);

/** Data of a `data-kestrel-status` part: the run's ids, phase, output status and last seq, updated in place as the run moves. */
export type KestrelStatusData = z.infer<typeof kestrelStatusDataSchema>;
/** Data of a `data-kestrel-finish` part: the run-level finish reason, `null` when no root turn ended in the run interval. */
export type KestrelFinishData = z.infer<typeof kestrelFinishDataSchema>;
/** Data of a `data-kestrel-draft` part: the streamed draft while it is motion, and no text once the run settled. */
export type KestrelDraftData =
  { readonly state: 'streaming' | 'interrupted' | 'detached'; readonly text: string } | { readonly state: 'settled' };
/** Data of a `data-kestrel-interaction` part: the question a WAITING run asks, and the run/seq the answer continues. */
export interface KestrelInteractionData {
  readonly runId: string;
  readonly sessionId: string;
  readonly seq: number;
  readonly interaction: Interaction;
}
/** Data of a `data-kestrel-error` part: a FAILED output's error (`source: 'output'`) or a client-side `RunError` with no outcome (`source: 'client'`). */
export type KestrelErrorData =
  | { readonly source: 'output'; readonly error: FailedOutput['error'] }
  | { readonly source: 'client'; readonly error: RunError };
/** Data of a `data-kestrel-cancellation` part: why a CANCELLED run stopped and who stopped it. */
export type KestrelCancellationData = CancelledOutput['cancellation'];
/** Data of the transient `data-kestrel-progress` part (seen in `useChat`'s `onData`, not kept on the message). */
export type KestrelProgressData = z.infer<typeof kestrelProgressDataSchema>;
/** `P` is the payload type the app's schema gives. */
export type KestrelPayloadData<P = unknown> =
  | { readonly status: 'valid'; readonly value: P }
  | { readonly status: 'invalid'; readonly raw: unknown; readonly issues: readonly PayloadIssue[] };

/** The data part types of a {@link KestrelUIMessage}, by name (the part type is `data-<name>`). */
export type KestrelDataTypes<P = unknown> = {
  'kestrel-status': KestrelStatusData;
  'kestrel-finish': KestrelFinishData;
  'kestrel-draft': KestrelDraftData;
  'kestrel-interaction': KestrelInteractionData;
  'kestrel-error': KestrelErrorData;
  'kestrel-cancellation': KestrelCancellationData;
  'kestrel-progress': KestrelProgressData;
  'kestrel-payload': KestrelPayloadData<P>;
};

/**
 * Metadata of a Kestrel chat's messages. A user message carries its answer to a WAITING interaction (see
 * `interactionAnswerMessage`); an assistant message says when the user message before it was not applied or sent.
 */
export interface KestrelMessageMetadata {
  readonly kestrelAnswer?: InteractionAnswer;
  /**
   * On an assistant message: the run had stopped waiting on this interaction (it was answered elsewhere, e.g. in
   * another tab, or here before a `regenerate()`), so the answer before this message was not applied (again); the
   * message shows the run's newest attempt.
   */
  readonly kestrelAnswerNotApplied?: { readonly interactionId: string };
  /**
   * On an assistant message: the plain user message before it was not sent, because the run was not where this chat
   * showed it. `run-in-progress`: an attempt begun elsewhere is streaming (a new run would be refused);
   * `run-waiting`: the run now waits on a question this chat had not shown. The message shows that newest attempt;
   * send the text again once it settles.
   */
  readonly kestrelMessageNotSent?: { readonly reason: KestrelMessageNotSentReason };
}

/** Why a plain user message was not sent: see `KestrelMessageMetadata.kestrelMessageNotSent`. */
export type KestrelMessageNotSentReason = 'run-in-progress' | 'run-waiting';

/**
 * The AI SDK message a Kestrel run becomes: reasoning and dynamic tool parts, a `text` part holding only the settled
 * `output.assistantText`, and the `data-kestrel-*` parts (the streamed draft is `data-kestrel-draft`, never text).
 *
 * @example
 * const { messages } = useChat<KestrelUIMessage>({ transport, dataPartSchemas: kestrelDataPartSchemas });
 */
export type KestrelUIMessage<P = unknown, METADATA = KestrelMessageMetadata> = UIMessage<METADATA, KestrelDataTypes<P>>;

/** What `useChat({ dataPartSchemas })` takes for a {@link KestrelUIMessage} with payload type `P`. */
export type KestrelDataPartSchemas<P = unknown> = {
  [K in keyof KestrelDataTypes<P>]: FlexibleSchema<KestrelDataTypes<P>[K]>;
};

function payloadSchemaFor<P>(payloadSchema: PayloadSchema<P> | undefined) {
  if (payloadSchema === undefined) return kestrelPayloadDataSchema;
  const value = z.custom<P>((input) => {
    const result = payloadSchema['~standard'].validate(input);
    return !(result instanceof Promise) && result.issues === undefined;
  }, 'The payload does not match the payload schema');
  return z.discriminatedUnion('status', [
    z.object({ status: z.literal('valid'), value }),
    kestrelPayloadDataSchema.options[1],
  ]);
}

/*
 * ai@6.0.326 looks a schema up by two different keys: its types and `validateUIMessages` use the bare name
 * (`kestrel-status`), while the streaming path inside `useChat` uses the chunk type (`data-kestrel-status`). The
 * object carries both so that either path really validates; its declared type is the one `useChat` expects.
 */
function withStreamKeys(byName: Record<string, z.ZodType>): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(byName).flatMap(([name, schema]) => [
      [name, schema],
      [`data-${name}`, schema],
    ]),
  );
}

/**
 * Schemas for every `data-kestrel-*` part, with the `valid` payload checked by the app's payload schema, so the
 * message type carries the payload type.
 *
 * @example
 * useChat<KestrelUIMessage<Invoice>>({ transport, dataPartSchemas: createKestrelDataPartSchemas(invoiceSchema) });
 */
export function createKestrelDataPartSchemas<P = unknown>(payloadSchema?: PayloadSchema<P>): KestrelDataPartSchemas<P> {
  return withStreamKeys({
    'kestrel-status': kestrelStatusDataSchema,
    'kestrel-finish': kestrelFinishDataSchema,
    'kestrel-draft': kestrelDraftDataSchema,
    'kestrel-interaction': kestrelInteractionDataSchema,
    'kestrel-error': kestrelErrorDataSchema,
    'kestrel-cancellation': kestrelCancellationDataSchema,
    'kestrel-progress': kestrelProgressDataSchema,
    'kestrel-payload': payloadSchemaFor(payloadSchema),
  }) as unknown as KestrelDataPartSchemas<P>;
}

/**
 * Zod schemas for every `data-kestrel-*` part, ready for `useChat({ dataPartSchemas })` and
 * `validateUIMessages({ dataSchemas })`.
 *
 * @example
 * useChat<KestrelUIMessage>({ transport, dataPartSchemas: kestrelDataPartSchemas });
 */
export const kestrelDataPartSchemas: KestrelDataPartSchemas = createKestrelDataPartSchemas();
