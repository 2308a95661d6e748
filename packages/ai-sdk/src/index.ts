export {
  createKestrelDataPartSchemas,
  kestrelCancellationDataSchema,
  kestrelDataPartSchemas,
  kestrelDraftDataSchema,
  kestrelErrorDataSchema,
  kestrelFinishDataSchema,
  kestrelInteractionDataSchema,
  kestrelPayloadDataSchema,
  kestrelProgressDataSchema,
  kestrelStatusDataSchema,
} from './data-part-schemas.js';
export type {
  KestrelCancellationData,
  KestrelDataPartSchemas,
  KestrelDataTypes,
  KestrelDraftData,
  KestrelErrorData,
  KestrelFinishData,
  KestrelInteractionData,
  KestrelMessageMetadata,
  KestrelMessageNotSentReason,
  KestrelPayloadData,
  KestrelProgressData,
  KestrelStatusData,
  KestrelUIMessage,
} from './data-part-schemas.js';
export { kestrelMessageId } from './kestrel-parts.js';
export type { KestrelDataPart } from './kestrel-parts.js';
export { runCompletedToUIMessage, runStateToUIMessage, toolCallToPart } from './run-state-to-ui-message.js';
export type { RunMessageOptions } from './run-state-to-ui-message.js';
export { createRunChunkWriter } from './run-chunk-writer.js';
export type { RunChunkEnd, RunChunkWriter } from './run-chunk-writer.js';
export { KestrelChatTransport } from './kestrel-chat-transport.js';
export type { KestrelChatTransportOptions } from './kestrel-chat-transport.js';
export { KestrelChatError } from './kestrel-chat-error.js';
export type { KestrelChatErrorReason } from './kestrel-chat-error.js';
export {
  answerFromMetadata,
  describeAnswer,
  interactionAnswerMessage,
  kestrelStatusOf,
  pendingInteraction,
  respondWithAnswer,
} from './interaction-answer.js';
export { createMemoryRunStore } from './run-store.js';
export type { KestrelRunRecord, KestrelRunStore } from './run-store.js';
export { loadChatHistory } from './chat-history.js';
export type { KestrelChatHistory, KestrelChatHistoryStatus, LoadChatHistoryOptions } from './chat-history.js';
