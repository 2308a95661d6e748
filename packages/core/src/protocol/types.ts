import type * as z from 'zod/mini';
import type * as s from './schemas.js';
import type * as listing from './listing-schemas.js';
import type * as start from './start-body-schemas.js';

/** A yes/no question about `action` (kind `approval`); answer with an `ApprovalAnswer`. */
export type ApprovalInteraction = z.infer<typeof s.approvalInteractionSchema>;
/** One selectable option of a `ChoiceInteraction`; answers refer to it by `id`. */
export type ChoiceOption = z.infer<typeof s.choiceOptionSchema>;
/** Pick from `options` (kind `choice`), several when `multiple`; answer with a `ChoiceAnswer`. */
export type ChoiceInteraction = z.infer<typeof s.choiceInteractionSchema>;
/** Asks for free text (kind `text`); answer with a `TextAnswer`. */
export type TextInteraction = z.infer<typeof s.textInteractionSchema>;
/** One field of a `FormInteraction`: `name` keys the answer value, `type` says which value it takes. */
export type FormField = z.infer<typeof s.formFieldSchema>;
/** A form field's value type: `string`, `number`, `boolean`, or `enum` (one of the field's `options`). */
export type FormFieldType = z.infer<typeof s.formFieldTypeSchema>;
/** Asks for several typed values at once (kind `form`); answer with a `FormAnswer`. */
export type FormInteraction = z.infer<typeof s.formInteractionSchema>;
/** An interaction of a kind this client cannot answer; `originalKind` is what the server sent. */
export type UnsupportedInteraction = z.output<typeof s.unsupportedInteractionSchema>;
/** What a WAITING output asks a person (docs/protocol.md#interactions-and-answers); branch on `kind`. */
export type Interaction = z.output<typeof s.interactionSchema>;
/** The `kind` of an `Interaction`, `unsupported` included: switch on it to pick a control. */
export type InteractionKind = Interaction['kind'];

/** Answers an `ApprovalInteraction`: `approved`, with an optional `comment`. */
export type ApprovalAnswer = z.infer<typeof s.approvalAnswerSchema>;
/** Answers a `ChoiceInteraction`: the `id`s of the `selected` options. */
export type ChoiceAnswer = z.infer<typeof s.choiceAnswerSchema>;
/** Answers a `TextInteraction` with non-empty `text`. */
export type TextAnswer = z.infer<typeof s.textAnswerSchema>;
/** Answers a `FormInteraction`: `values` keyed by field `name`. */
export type FormAnswer = z.infer<typeof s.formAnswerSchema>;
/** One form answer value: string, number or boolean, matching the field's `type`. */
export type FormValue = z.infer<typeof s.formValueSchema>;
/** The body that answers an interaction; check it with `validateInteractionAnswer` before sending. */
export type InteractionAnswer = z.infer<typeof s.interactionAnswerSchema>;

/** A COMPLETED attempt: final `assistantText` and, with a `responseFormat`, `finalizedPayload` (`unknown` until checked, see `readPayload`). */
export type CompletedOutput = z.output<typeof s.completedOutputSchema>;
/** A FAILED attempt: `error.code`, `error.message`, and `error.retryable` when retrying may help. */
export type FailedOutput = z.output<typeof s.failedOutputSchema>;
/** A CANCELLED attempt: `cancellation.reason` and who cancelled (`by`). */
export type CancelledOutput = z.output<typeof s.cancelledOutputSchema>;
/** A WAITING attempt: the run is paused until someone answers `interaction`. */
export type WaitingOutput = z.output<typeof s.waitingOutputSchema>;
/** A settled attempt's output, discriminated by `status` (docs/protocol.md#outputs). */
export type RunOutput = z.output<typeof s.runOutputSchema>;
/** What happened: `COMPLETED`, `FAILED`, `CANCELLED` or `WAITING`. */
export type RunOutputStatus = RunOutput['status'];

/** `run.started`: an attempt began (`attempt` counts from 1) and its `sessionId` is the run's root session. */
export type RunStartedEvent = z.output<typeof s.runStartedEventSchema>;
/** `message.received`: the server durably received the input as message `messageId`. */
export type MessageReceivedEvent = z.output<typeof s.messageReceivedEventSchema>;
/** `reasoning.delta`: a chunk of model reasoning text; motion only, never the outcome. */
export type ReasoningDeltaEvent = z.output<typeof s.reasoningDeltaEventSchema>;
/** `text.delta`: a chunk of assistant text as it streams; motion only, `run.completed` carries the outcome. */
export type TextDeltaEvent = z.output<typeof s.textDeltaEventSchema>;
/** `progress`: a human `label` for the current step, with `fraction` (0 to 1) when the server knows it. */
export type ProgressEvent = z.output<typeof s.progressEventSchema>;
/** Severity of a `log` event: `debug`, `info`, `warn` or `error`. */
export type LogLevel = z.output<typeof s.logLevelSchema>;
/** `log`: a diagnostic `message` at `level`; motion only, collected in `state.logs`. */
export type LogEvent = z.output<typeof s.logEventSchema>;
/** `tool.started`: the agent called tool `name` with `input`; `callId` pairs it with its `tool.completed`. */
export type ToolStartedEvent = z.output<typeof s.toolStartedEventSchema>;
/** `tool.completed`: tool call `callId` returned `output` (failed when `isError`); evidence, never the run's payload. */
export type ToolCompletedEvent = z.output<typeof s.toolCompletedEventSchema>;
/** A turn of `sessionId` ended; only root-session turns count for `finishReason`. */
export type TurnEndEvent = z.output<typeof s.turnEndEventSchema>;
/** `agent.idle`: the whole agent reached idle; `run.completed` still decides the outcome. */
export type AgentIdleEvent = z.output<typeof s.agentIdleEventSchema>;
/** The terminal event: the only thing that settles an attempt, whatever text streamed before it. */
export type RunCompletedEvent = z.output<typeof s.runCompletedEventSchema>;
/** Every event type of docs/protocol.md#events, validated field by field. */
export type KnownRunEvent = z.output<typeof s.knownRunEventSchema>;
/** The `type` strings of `KnownRunEvent`, e.g. `'text.delta'`; `KNOWN_EVENT_TYPES` is the runtime list. */
export type KnownRunEventType = KnownRunEvent['type'];

/**
 * An event of a type this client does not know. It is kept in order with the others (forward compatibility),
 * changes no state, and carries the server's object untouched in `raw`.
 */
export interface UnknownRunEvent {
  readonly type: 'unknown';
  /** The `type` the server sent. */
  readonly unknownType: string;
  readonly runId: string;
  readonly seq: number;
  readonly sessionId: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Every event a run stream can deliver, after validation. */
export type RunEvent = KnownRunEvent | UnknownRunEvent;

/** Asks for structured output: `finalizedPayload` will follow this JSON schema. */
export type ResponseFormat = z.infer<typeof start.responseFormatSchema>;
/** Body of `POST /v1/sessions/{sessionId}/runs`: `input`, plus `responseFormat` to ask for a structured payload. */
export type StartRunBody = z.infer<typeof start.startRunBodySchema>;
/** `{ error: { code, message } }`: the body of a request error (non-2xx), never a run outcome. */
export type RequestErrorBody = z.infer<typeof s.requestErrorBodySchema>;
/** One answer given in a run of a session, from the listing: `interactionId`, `attempt` and the `answer` body. */
export type SessionAnswerRecord = z.output<typeof listing.sessionAnswerSchema>;
/** One run of a session listing: input, `createdAt`, `live`, the settled `result` (when settled) and its `answers`. */
export type RunSummary = z.output<typeof listing.runSummarySchema>;
/** A page of a session listing: `runs` oldest first, `nextCursor` to page further back (null: no older runs). */
export type RunListPage = z.output<typeof listing.runListPageSchema>;
