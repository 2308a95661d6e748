import type * as z from 'zod/mini';
import type * as s from './schemas.js';

export type ApprovalInteraction = z.infer<typeof s.approvalInteractionSchema>;
export type ChoiceOption = z.infer<typeof s.choiceOptionSchema>;
export type ChoiceInteraction = z.infer<typeof s.choiceInteractionSchema>;
export type TextInteraction = z.infer<typeof s.textInteractionSchema>;
export type FormField = z.infer<typeof s.formFieldSchema>;
export type FormFieldType = z.infer<typeof s.formFieldTypeSchema>;
export type FormInteraction = z.infer<typeof s.formInteractionSchema>;
/** An interaction of a kind this client cannot answer; `originalKind` is what the server sent. */
export type UnsupportedInteraction = z.output<typeof s.unsupportedInteractionSchema>;
/** What a WAITING output asks a person (PROTOCOL.md section 4); branch on `kind`. */
export type Interaction = z.output<typeof s.interactionSchema>;
export type InteractionKind = Interaction['kind'];

export type ApprovalAnswer = z.infer<typeof s.approvalAnswerSchema>;
export type ChoiceAnswer = z.infer<typeof s.choiceAnswerSchema>;
export type TextAnswer = z.infer<typeof s.textAnswerSchema>;
export type FormAnswer = z.infer<typeof s.formAnswerSchema>;
export type FormValue = z.infer<typeof s.formValueSchema>;
/** The body that answers an interaction; check it with `validateInteractionAnswer` before sending. */
export type InteractionAnswer = z.infer<typeof s.interactionAnswerSchema>;

export type CompletedOutput = z.output<typeof s.completedOutputSchema>;
export type FailedOutput = z.output<typeof s.failedOutputSchema>;
export type CancelledOutput = z.output<typeof s.cancelledOutputSchema>;
export type WaitingOutput = z.output<typeof s.waitingOutputSchema>;
/** A settled attempt's output, discriminated by `status` (PROTOCOL.md section 3). */
export type RunOutput = z.output<typeof s.runOutputSchema>;
/** What happened: `COMPLETED`, `FAILED`, `CANCELLED` or `WAITING`. */
export type RunOutputStatus = RunOutput['status'];

export type RunStartedEvent = z.output<typeof s.runStartedEventSchema>;
export type MessageReceivedEvent = z.output<typeof s.messageReceivedEventSchema>;
export type ReasoningDeltaEvent = z.output<typeof s.reasoningDeltaEventSchema>;
export type TextDeltaEvent = z.output<typeof s.textDeltaEventSchema>;
export type ProgressEvent = z.output<typeof s.progressEventSchema>;
export type LogLevel = z.output<typeof s.logLevelSchema>;
export type LogEvent = z.output<typeof s.logEventSchema>;
export type ToolStartedEvent = z.output<typeof s.toolStartedEventSchema>;
export type ToolCompletedEvent = z.output<typeof s.toolCompletedEventSchema>;
/** A turn of `sessionId` ended; only root-session turns count for `finishReason`. */
export type TurnEndEvent = z.output<typeof s.turnEndEventSchema>;
export type AgentIdleEvent = z.output<typeof s.agentIdleEventSchema>;
/** The terminal event: the only thing that settles an attempt, whatever text streamed before it. */
export type RunCompletedEvent = z.output<typeof s.runCompletedEventSchema>;
/** Every event type of PROTOCOL.md section 2, validated field by field. */
export type KnownRunEvent = z.output<typeof s.knownRunEventSchema>;
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
export type ResponseFormat = z.infer<typeof s.responseFormatSchema>;
export type StartRunBody = z.infer<typeof s.startRunBodySchema>;
/** `{ error: { code, message } }`: the body of a request error (non-2xx), never a run outcome. */
export type RequestErrorBody = z.infer<typeof s.requestErrorBodySchema>;
