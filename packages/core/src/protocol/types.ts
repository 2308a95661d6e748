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
export type Interaction = z.output<typeof s.interactionSchema>;
export type InteractionKind = Interaction['kind'];

export type ApprovalAnswer = z.infer<typeof s.approvalAnswerSchema>;
export type ChoiceAnswer = z.infer<typeof s.choiceAnswerSchema>;
export type TextAnswer = z.infer<typeof s.textAnswerSchema>;
export type FormAnswer = z.infer<typeof s.formAnswerSchema>;
export type FormValue = z.infer<typeof s.formValueSchema>;
export type InteractionAnswer = z.infer<typeof s.interactionAnswerSchema>;

export type CompletedOutput = z.output<typeof s.completedOutputSchema>;
export type FailedOutput = z.output<typeof s.failedOutputSchema>;
export type CancelledOutput = z.output<typeof s.cancelledOutputSchema>;
export type WaitingOutput = z.output<typeof s.waitingOutputSchema>;
export type RunOutput = z.output<typeof s.runOutputSchema>;
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
export type TurnEndEvent = z.output<typeof s.turnEndEventSchema>;
export type AgentIdleEvent = z.output<typeof s.agentIdleEventSchema>;
export type RunCompletedEvent = z.output<typeof s.runCompletedEventSchema>;
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

export type ResponseFormat = z.infer<typeof s.responseFormatSchema>;
export type StartRunBody = z.infer<typeof s.startRunBodySchema>;
export type RequestErrorBody = z.infer<typeof s.requestErrorBodySchema>;
