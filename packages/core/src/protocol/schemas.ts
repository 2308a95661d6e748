import * as z from 'zod/mini';
import { protocolParseOptions } from './protocol-error-map.js';

/*
 * The Kestrel wire contract as zod schemas. Objects are `looseObject` on purpose: fields a newer server adds
 * are kept on the parsed value, so nothing the server sent is lost between the wire and the UI.
 * Written with `zod/mini` (same zod 4 engine, same issues) because classic zod does not tree-shake: it cost
 * every app about 92 kB gz, mini about 5 kB for these schemas (apps/bench, `pnpm run size`).
 * Unions are dispatched by hand on their discriminator (`byDiscriminator`) rather than with `z.discriminatedUnion`:
 * the error then names the field of the branch that was meant, and the union machinery stays out of the bundle.
 */

type Schema = z.ZodMiniType<unknown, unknown>;

/**
 * Picks the schema for `value[key]` and parses with it; a value of another discriminator fails at `[key]`, unless
 * a `fallback` takes every other value (interactions of an unknown kind).
 */
function byDiscriminator<const M extends Record<string, Schema>, F extends Schema = never>(
  key: string,
  schemas: M,
  fallback?: F,
) {
  const values = Object.keys(schemas);
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx): z.output<M[keyof M]> | z.output<F> => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        ctx.issues.push({ code: 'invalid_type', expected: 'object', input: value });
        return z.NEVER;
      }
      const tag = (value as Record<string, unknown>)[key];
      const schema = typeof tag === 'string' && Object.hasOwn(schemas, tag) ? schemas[tag] : fallback;
      if (schema === undefined) {
        ctx.issues.push({ code: 'invalid_value', values, input: tag, path: [key] });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value, protocolParseOptions);
      if (parsed.success) return parsed.data as z.output<M[keyof M]> | z.output<F>;
      for (const issue of parsed.error.issues)
        ctx.issues.push({ ...issue, input: value } as (typeof ctx.issues)[number]);
      return z.NEVER;
    }),
  );
}

/** A non-empty string (ids, names). */
export const nonEmpty = z.string().check(z.minLength(1));

// Number.isSafeInteger is exactly what `z.int()` accepts; as a refinement it costs every app 0.2 kB gz less.
export const integer = z.refine<number>(Number.isSafeInteger, 'Invalid input: expected int, received number');

/*
 * An RFC 3339 date-time (`2026-11-30T12:00:00Z`, `2026-11-30T12:00:00.5+01:00`): seconds and a zone required, as
 * zod's `z.iso.datetime({ offset: true })` requires them. A regex of our own, because that check costs every app
 * about 0.6 kB gz; the one difference is that February 29 is accepted in any year.
 */
export const isoDateTime =
  /^\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|[12]\d))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export const interactionBaseShape = {
  id: nonEmpty,
  prompt: z.string(),
  expiresAt: z.optional(z.string().check(z.regex(isoDateTime, 'Invalid ISO datetime'))),
};

/** A WAITING interaction of kind `approval`: yes/no on `action`, with optional `details` to show (docs/protocol.md#interactions-and-answers). */
export const approvalInteractionSchema = z.looseObject({
  ...interactionBaseShape,
  kind: z.literal('approval'),
  action: z.string(),
  details: z.optional(z.unknown()),
});

/** One option of a `choice` interaction; the answer's `selected` lists option `id`s. */
export const choiceOptionSchema = z.looseObject({
  id: nonEmpty,
  label: z.string(),
  description: z.optional(z.string()),
});

/** A WAITING interaction of kind `choice`: pick one option, or several when `multiple` is true. */
export const choiceInteractionSchema = z.looseObject({
  ...interactionBaseShape,
  kind: z.literal('choice'),
  options: z.array(choiceOptionSchema).check(z.minLength(1)),
  multiple: z.optional(z.boolean()),
});

/** A WAITING interaction of kind `text`: free text, with an optional `placeholder` and `multiline` hint. */
export const textInteractionSchema = z.looseObject({
  ...interactionBaseShape,
  kind: z.literal('text'),
  placeholder: z.optional(z.string()),
  multiline: z.optional(z.boolean()),
});

export const formFieldTypeSchema = z.literal(['string', 'number', 'boolean', 'enum']);

/** One typed field of a `form` interaction; `options` lists the allowed values of an `enum` field. */
export const formFieldSchema = z.looseObject({
  name: nonEmpty,
  label: z.string(),
  type: formFieldTypeSchema,
  required: z.optional(z.boolean()),
  options: z.optional(z.array(z.string())),
});

/** A WAITING interaction of kind `form`: several typed `fields`, answered as `values` keyed by field `name`. */
export const formInteractionSchema = z.looseObject({
  ...interactionBaseShape,
  kind: z.literal('form'),
  fields: z.array(formFieldSchema),
});

/** Kinds this client can render and answer. Any other kind is kept as an unsupported interaction. */
export const SUPPORTED_INTERACTION_KINDS = ['approval', 'choice', 'text', 'form'] as const;

/*
 * An interaction of a kind this client does not know is not a protocol error (docs/protocol.md#interactions-and-answers). It is
 * kept, renamed to kind `unsupported` with the server's kind in `originalKind`, so that `kind` still narrows.
 */
const anyKindInteractionSchema = z.looseObject({
  ...interactionBaseShape,
  kind: z.string(),
  originalKind: z.optional(z.string()),
});

/** Any interaction of a kind this client cannot answer: parsed to kind `unsupported`, the server's kind kept in `originalKind`. */
export const unsupportedInteractionSchema = z.pipe(
  anyKindInteractionSchema,
  // Idempotent: a value that was already mapped (parsed twice, or forwarded by a proxy) keeps the server's kind.
  z.transform(({ kind, originalKind, ...rest }: z.output<typeof anyKindInteractionSchema>) => ({
    ...rest,
    kind: 'unsupported' as const,
    originalKind: kind === 'unsupported' && originalKind !== undefined ? originalKind : kind,
  })),
);

/**
 * Validates the `interaction` of a WAITING output by its `kind`; unknown kinds become unsupported, not errors.
 * Use `Interaction` for the type.
 */
export const interactionSchema = byDiscriminator(
  'kind',
  {
    approval: approvalInteractionSchema,
    choice: choiceInteractionSchema,
    text: textInteractionSchema,
    form: formInteractionSchema,
  },
  unsupportedInteractionSchema,
);

/** Answer body for an `approval` interaction: `{ kind: 'approval', approved, comment? }`. */
export const approvalAnswerSchema = z.object({
  kind: z.literal('approval'),
  approved: z.boolean(),
  comment: z.optional(z.string()),
});
/** Answer body for a `choice` interaction: `{ kind: 'choice', selected: optionIds }`. */
export const choiceAnswerSchema = z.object({
  kind: z.literal('choice'),
  selected: z.array(z.string()),
});
/** Answer body for a `text` interaction: `{ kind: 'text', text }` with non-empty text. */
export const textAnswerSchema = z.object({
  kind: z.literal('text'),
  text: z.string().check(z.minLength(1)),
});
export const formValueSchema = z.union([z.string(), z.number(), z.boolean()]);
/** Answer body for a `form` interaction: `{ kind: 'form', values }`, one string, number or boolean per field name. */
export const formAnswerSchema = z.object({
  kind: z.literal('form'),
  values: z.record(z.string(), formValueSchema),
});

/**
 * Any answer body (`POST /v1/sessions/{sessionId}/interactions/{interactionId}`), by `kind`;
 * `validateInteractionAnswer` also checks it against the interaction it answers.
 */
export const interactionAnswerSchema = byDiscriminator('kind', {
  approval: approvalAnswerSchema,
  choice: choiceAnswerSchema,
  text: textAnswerSchema,
  form: formAnswerSchema,
});

const optionalText = z.optional(z.nullable(z.string()));

/** Output of a COMPLETED attempt: the final `assistantText`, plus `finalizedPayload` when a `responseFormat` was asked for. */
export const completedOutputSchema = z.looseObject({
  status: z.literal('COMPLETED'),
  assistantText: z
    .string({ error: 'expected a non-empty string' })
    .check(z.minLength(1, 'expected a non-empty string')),
  finalizedPayload: z.optional(z.unknown()),
});

/** Why a run FAILED: a machine `code`, a human `message`, and whether retrying may help (`retryable`). */
export const runErrorInfoSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  retryable: z.optional(z.boolean()),
});

/** Output of a FAILED attempt: `error` says why; any text streamed before the failure may be in `assistantText`. */
export const failedOutputSchema = z.looseObject({
  status: z.literal('FAILED'),
  error: runErrorInfoSchema,
  assistantText: optionalText,
});

/** Why a run was CANCELLED, and by whom (`user` or `system`) when the server says. */
export const cancellationSchema = z.looseObject({
  reason: z.string(),
  by: z.optional(z.literal(['user', 'system'])),
});

/** Output of a CANCELLED attempt: `cancellation` says why; partial text may be in `assistantText`. */
export const cancelledOutputSchema = z.looseObject({
  status: z.literal('CANCELLED'),
  cancellation: cancellationSchema,
  assistantText: optionalText,
});

/** Output of a WAITING attempt: the run paused on `interaction` until a person answers it. */
export const waitingOutputSchema = z.looseObject({
  status: z.literal('WAITING'),
  interaction: interactionSchema,
  assistantText: optionalText,
});

/** The `output` of `run.completed`, discriminated by `status` (docs/protocol.md#outputs). Use `RunOutput` for the type. */
export const runOutputSchema = byDiscriminator('status', {
  COMPLETED: completedOutputSchema,
  FAILED: failedOutputSchema,
  CANCELLED: cancelledOutputSchema,
  WAITING: waitingOutputSchema,
});

/** Fields every event carries, whatever its type. */
export const eventEnvelopeSchema = z.looseObject({
  type: nonEmpty,
  runId: nonEmpty,
  seq: z.number().check(integer, z.positive()),
  sessionId: nonEmpty,
});

const envelope = {
  runId: nonEmpty,
  seq: z.number().check(integer, z.positive()),
  sessionId: nonEmpty,
};

export const runStartedEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('run.started'),
  attempt: z.number().check(integer, z.gte(1)),
});
export const messageReceivedEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('message.received'),
  messageId: nonEmpty,
});
export const reasoningDeltaEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('reasoning.delta'),
  delta: z.string(),
});
export const textDeltaEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('text.delta'),
  delta: z.string(),
});
export const progressEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('progress'),
  label: z.string(),
  fraction: z.optional(z.number().check(z.gte(0), z.lte(1))),
});
export const logLevelSchema = z.literal(['debug', 'info', 'warn', 'error']);
export const logEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('log'),
  level: logLevelSchema,
  message: z.string(),
});
export const toolStartedEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('tool.started'),
  callId: nonEmpty,
  name: z.string(),
  input: z.optional(z.unknown()),
});
export const toolCompletedEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('tool.completed'),
  callId: nonEmpty,
  output: z.optional(z.unknown()),
  isError: z.optional(z.boolean()),
});
export const turnEndReasonSchema = z.looseObject({
  kind: z.string({ error: 'expected reason.kind to be a string' }),
});
export const turnEndEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('turn/end'),
  reason: turnEndReasonSchema,
});
export const agentIdleEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('agent.idle'),
});
/** The terminal `run.completed` event; prefer `parseRunCompletedEvent`, which throws a `ProtocolError` naming the field. */
export const runCompletedEventSchema = z.looseObject({
  ...envelope,
  type: z.literal('run.completed'),
  attempt: z.number().check(integer, z.gte(1)),
  output: runOutputSchema,
});

const knownEventSchemas = {
  'run.started': runStartedEventSchema,
  'message.received': messageReceivedEventSchema,
  'reasoning.delta': reasoningDeltaEventSchema,
  'text.delta': textDeltaEventSchema,
  progress: progressEventSchema,
  log: logEventSchema,
  'tool.started': toolStartedEventSchema,
  'tool.completed': toolCompletedEventSchema,
  'turn/end': turnEndEventSchema,
  'agent.idle': agentIdleEventSchema,
  'run.completed': runCompletedEventSchema,
};
/** Every event type this client understands, by `type`. Prefer `parseRunEvent`, which also keeps unknown types instead of failing. */
export const knownRunEventSchema = byDiscriminator('type', knownEventSchemas);

/** Whether `type` is one of {@link KNOWN_EVENT_TYPES} (without bundling that list where only this is used). */
export function isKnownEventType(type: string): boolean {
  return Object.hasOwn(knownEventSchemas, type);
}

/** Event types this client understands. Anything else becomes an {@link UnknownRunEvent}. */
export const KNOWN_EVENT_TYPES = [
  'run.started',
  'message.received',
  'reasoning.delta',
  'text.delta',
  'progress',
  'log',
  'tool.started',
  'tool.completed',
  'turn/end',
  'agent.idle',
  'run.completed',
] as const satisfies readonly (keyof typeof knownEventSchemas)[];

/** The error body of a failed request (not a run outcome). */
export const requestErrorBodySchema = z.object({
  error: z.looseObject({ code: z.string(), message: z.string() }),
});
