export { createEventFactory } from './event-factory.js';
export type { EventFactory, EventFactoryOptions, WireEvent } from './event-factory.js';
export { ev, evs, scenarioEvents } from './scenario.js';
export type {
  Scenario,
  ScenarioContinuation,
  ScenarioExpectation,
  ScenarioGroup,
  ScenarioRetry,
  ScenarioStep,
} from './scenario.js';
export { getScenario, scenarios } from './scenarios.js';
export { invoiceResponseFormat, invoiceSchema, sampleInvoice } from './invoice.js';
export type { Invoice } from './invoice.js';
export { scenarioActions } from './scenario-actions.js';
export { chunksToStream, seededRandom, splitAt, splitRandomly, stepsToSSE, stepsToStream, toBytes } from './sse.js';
export { createScenarioSource } from './scenario-source.js';
export type { ScenarioSource, ScenarioSourceOptions } from './scenario-source.js';
export { createScenarioHandler } from './scenario-handler/create-scenario-handler.js';
export { createScenarioFetch } from './scenario-handler/create-scenario-fetch.js';
export type { ScenarioFetchOptions } from './scenario-handler/create-scenario-fetch.js';
export type { ScenarioHandler, ScenarioHandlerOptions, SessionSeed } from './scenario-handler/options.js';
export { DELAY_HEADER, FAULT_HEADER } from './scenario-handler/request-faults.js';
export { SCENARIO_HEADER } from './scenario-handler/select-scenario.js';
export { createScenarioRun } from './scenario-run.js';
export type { ScenarioRun, ScenarioRunOptions } from './scenario-run.js';
export { createLongStreamScenario } from './long-stream.js';
export type { LongStreamOptions } from './long-stream.js';
export { recordingFetch } from './recording-fetch.js';
export type { RecordedRequest } from './recording-fetch.js';
export { createManualFrameScheduler } from './manual-frame-scheduler.js';
export type { ManualFrameScheduler, ManualFrameSchedulerOptions } from './manual-frame-scheduler.js';
export {
  createCodeAnswer,
  createListAnswer,
  createMarkdownAnswer,
  createTableAnswer,
  splitIntoDeltas,
} from './markdown-answer.js';
export type { MarkdownAnswerOptions } from './markdown-answer.js';
export { conversations, getConversation } from './conversations.js';
export type { Conversation, ConversationTurn } from './conversations.js';
export { scenarioFromRecording } from './scenario-from-recording.js';
export type { ScenarioFromRecordingOptions } from './scenario-from-recording.js';
