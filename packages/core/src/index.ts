export {
  approvalAnswerSchema,
  approvalInteractionSchema,
  cancellationSchema,
  cancelledOutputSchema,
  choiceAnswerSchema,
  choiceInteractionSchema,
  choiceOptionSchema,
  completedOutputSchema,
  eventEnvelopeSchema,
  failedOutputSchema,
  formAnswerSchema,
  formFieldSchema,
  formInteractionSchema,
  interactionAnswerSchema,
  interactionSchema,
  knownRunEventSchema,
  KNOWN_EVENT_TYPES,
  requestErrorBodySchema,
  runCompletedEventSchema,
  runErrorInfoSchema,
  runOutputSchema,
  SUPPORTED_INTERACTION_KINDS,
  textAnswerSchema,
  textInteractionSchema,
  unsupportedInteractionSchema,
  waitingOutputSchema,
} from './protocol/schemas.js';
export { runListPageSchema, runSummarySchema, sessionAnswerSchema } from './protocol/listing-schemas.js';
export { responseFormatSchema, startRunBodySchema } from './protocol/start-body-schemas.js';
export type {
  AgentIdleEvent,
  ApprovalAnswer,
  ApprovalInteraction,
  CancelledOutput,
  ChoiceAnswer,
  ChoiceInteraction,
  ChoiceOption,
  CompletedOutput,
  FailedOutput,
  FormAnswer,
  FormField,
  FormFieldType,
  FormInteraction,
  FormValue,
  Interaction,
  InteractionAnswer,
  InteractionKind,
  KnownRunEvent,
  KnownRunEventType,
  LogEvent,
  LogLevel,
  MessageReceivedEvent,
  ProgressEvent,
  ReasoningDeltaEvent,
  RequestErrorBody,
  ResponseFormat,
  RunCompletedEvent,
  RunEvent,
  RunListPage,
  RunOutput,
  RunOutputStatus,
  RunStartedEvent,
  RunSummary,
  StartRunBody,
  TextAnswer,
  TextDeltaEvent,
  TextInteraction,
  ToolCompletedEvent,
  ToolStartedEvent,
  TurnEndEvent,
  UnknownRunEvent,
  UnsupportedInteraction,
  WaitingOutput,
} from './protocol/types.js';
export { ProtocolError, formatPath } from './protocol/protocol-error.js';
export { protocolErrorMap } from './protocol/protocol-error-map.js';
export type { IssuePath, ProtocolErrorDetails, ProtocolIssue } from './protocol/protocol-error.js';
export { parseRunCompletedEvent, parseRunEvent, parseSSEMessage } from './protocol/parse-run-event.js';
export { parseRunListPage } from './protocol/parse-run-list-page.js';
export type { SSEMessage } from './sse/sse-message.js';
export {
  InteractionAnswerError,
  parseInteractionAnswerShape,
  validateInteractionAnswer,
} from './protocol/validate-interaction-answer.js';
export type { AnswerIssue, AnswerIssueCode, AnswerValidation } from './protocol/validate-interaction-answer.js';
export { decodeSSE } from './sse/decode-sse.js';
export { decodeSSEBatches } from './sse/decode-sse.js';
export type { DecodeSSEOptions } from './sse/decode-sse.js';
export { readSSE } from './sse/read-sse.js';
export type { SSEReadEnd, SSEReadStep } from './sse/read-sse.js';
export { encodeSSEComment } from './sse/encode-sse.js';
export { encodeSSEEvent } from './protocol/encode-run-event.js';
export type { WireEventObject } from './protocol/encode-run-event.js';
export type { AppendLog } from './run/append-log.js';
export { checkSchema, readPayload } from './run/payload.js';
export type { PayloadIssue, PayloadSchema, PayloadState, SchemaCheck } from './run/payload.js';
export type { StandardSchemaV1 } from './run/standard-schema.js';
export { createInitialRunState, initialRunState, isAwaitingOutcome, isFollowing } from './run/run-state.js';
export type {
  ReconnectInfo,
  RetainEvents,
  RunError,
  RunErrorKind,
  TransportConnection,
  RunLog,
  RunPhase,
  RunProgress,
  RunState,
  RunStateByPhase,
  RunStateFields,
  RunStateWithoutOutcome,
  ReconnectingRunState,
  SettledRunState,
  ErrorRunState,
  ToolCall,
  ToolCallStatus,
} from './run/run-state.js';
export type { ClientAction, RunAction } from './run/run-action.js';
export { reduceRun, transitionRun } from './run/reduce-run.js';
export type { RunEffect, RunEffectType, RunTransition } from './run/run-effect.js';
export type {
  FrameScheduler,
  HeadersInput,
  JsonRunOptions,
  MotionScheduleOptions,
  ListRunsOptions,
  ReconnectPolicy,
  ResumeRunOptions,
  RunClient,
  RunClientOptions,
  RunHandle,
  RunSource,
  StartRunOptions,
} from './client/types.js';
export { toHeaders } from './protocol/kestrel-headers.js';
export type { KestrelHeaders } from './protocol/kestrel-headers.js';
export { createRunController } from './controller/create-run-controller.js';
export type { RunController, RunControllerOptions } from './controller/create-run-controller.js';
export type { RunActions, RunBinding } from './controller/run-actions.js';
export { getRetryMode } from './controller/retry-mode.js';
export type { RetryMode } from './controller/retry-mode.js';
export { isWaitOver, waitOverReason } from './controller/wait-over.js';
export { createRunClient } from './client/create-run-client.js';
export { RunClientError, isRunClientError } from './client/run-client-error.js';
export type { RunClientErrorKind } from './client/run-client-error.js';
export { SessionListingError } from './client/session-listing-error.js';
export { listSessionRuns } from './client/list-session-runs.js';
export type { SessionListingReason } from './client/session-listing-error.js';
export { RunUsageError } from './client/run-usage-error.js';
export { isInteractionExpired } from './protocol/interaction-expiry.js';
export type { RunUsageReason } from './client/run-usage-error.js';
export { createTimerFrameScheduler } from './client/frame-scheduler.js';
export { MAX_CURSOR_LENGTH, MAX_LIST_LIMIT, matchKestrelRoute } from './protocol/kestrel-routes.js';
export type { KestrelRoute, KestrelRouteMatch } from './protocol/kestrel-routes.js';
export { createSessionController } from './session/create-session-controller.js';
export type {
  SessionAnswer,
  SessionAnswerNotTaken,
  SessionQuestion,
  SessionConcurrency,
  SessionController,
  SessionControllerOptions,
  SessionEntry,
  SessionEntryStatus,
  SessionHistoryStatus,
  SessionRefreshResult,
  SessionRetryResult,
  SessionSendResult,
  SessionState,
} from './session/session-types.js';
export { recordRun, DEFAULT_RECORDING_MAX_BYTES } from './recording/record-run.js';
export { recordingClient } from './recording/recording-client.js';
export type { RecordingClient, RecordingClientOptions, RecordingSwitch } from './recording/recording-client.js';
export { parseRunRecording } from './recording/parse-run-recording.js';
export { RecordingFormatError } from './recording/recording-format-error.js';
export type { RecordingIssue } from './recording/recording-format-error.js';
export { runRecordingSchema, recordingEntrySchema } from './recording/recording-schema.js';
export { REDACTED, redactInputs, redactPayloadValues, redactTexts } from './recording/redact-recording.js';
export { recordingToJsonLines } from './recording/recording-to-json-lines.js';
export type {
  RecordableRun,
  RecordedRunError,
  RecordingEntry,
  RecordingEntryType,
  RecordingFinalState,
  RecordingRedaction,
  RecordingTruncation,
  RecordRunOptions,
  RunRecorder,
  RunRecording,
} from './recording/recording-types.js';
export type {
  AttemptMode,
  ConnectionOutcome,
  ResultFallbackReason,
  TransportEvent,
  TransportEventType,
  TransportListener,
} from './client/transport-event.js';
