export { useRunSelector } from './use-run-selector.js';
export type { RunActions, RunBinding, UseRunResult } from './types.js';
export { KestrelProvider, useKestrelClient } from './kestrel-provider.js';
export type { KestrelProviderProps } from './kestrel-provider.js';
export type { KestrelDefaults } from './kestrel-context.js';
export { useRun } from './use-run.js';
export { useRunBinding } from './use-run-binding.js';
export type { UseRunOptions } from './use-run-binding.js';
export { RunView } from './components/run-view.js';
export type { RunViewProps } from './components/run-view.js';
export { Run } from './components/run-parts.js';
export { RunRoot } from './components/run-root.js';
export type { RunRootProps } from './components/run-root.js';
export { useRunContext } from './components/run-context.js';
export { RunConnection } from './components/run-connection.js';
export type { ConnectionState, RunConnectionProps } from './components/run-connection.js';
export { RunOutcome, RunRetry } from './components/run-outcome.js';
export type { RunOutcomeProps, RunRetryProps } from './components/run-outcome.js';
export { RunCancel } from './components/run-cancel.js';
export type { RunCancelProps } from './components/run-cancel.js';
export { RunCopy, COPY_FEEDBACK_MS, useCopyAnswer } from './components/run-copy.js';
export type { RunCopyProps, CopyAnswer, CopyState } from './components/run-copy.js';
export type { ActionButtonProps } from './components/action-button.js';
export type { KestrelAction, KestrelPart } from './components/styling-contract.js';
export { toolRenderer } from './components/tool-renderer.js';
export type { ToolCallView, ToolRenderer, ToolRenderers } from './components/tool-renderer.js';
export { AssistantText } from './components/assistant-text.js';
export type { AssistantTextMode, AssistantTextProps, RenderText } from './components/assistant-text.js';
export { FinishNotice } from './components/finish-notice.js';
export type { FinishNoticeKind, FinishNoticeProps } from './components/finish-notice.js';
export { InteractionPrompt } from './components/interaction-prompt.js';
export type { InteractionPromptProps } from './components/interaction-prompt.js';
export { useInteraction } from './components/use-interaction.js';
export type {
  AnswerByKind,
  AnswerIssueKey,
  AnswerResult,
  InteractionController,
  InteractionExpiry,
  InteractionRejection,
  InteractionRun,
  PromptState,
  RenderInteraction,
  UseInteractionOptions,
} from './components/use-interaction.js';
export { PayloadPanel } from './components/payload-panel.js';
export type { PayloadPanelProps, PayloadRenderContext, RenderPayload } from './components/payload-panel.js';
export { RunActivity } from './components/run-activity.js';
export type { RunActivityProps } from './components/run-activity.js';
export { RunStatus } from './components/run-status.js';
export type { RunAnnouncement, RunStatusProps } from './components/run-status.js';
export { RunErrorAlert } from './components/run-error-alert.js';
export type { RunErrorAlertProps } from './components/run-error-alert.js';
/** @deprecated The old name of `RunErrorAlert`, which collided with the `RunError` type of `@kestrel/core`. */
export { RunErrorAlert as RunError } from './components/run-error-alert.js';
/** @deprecated The old name of `RunErrorAlertProps`. */
export type { RunErrorAlertProps as RunErrorProps } from './components/run-error-alert.js';
export { KestrelLabelsProvider } from './components/labels.js';
export { defaultLabels, useKestrelLabels } from './components/default-labels.js';
export type { KestrelLabels, RunLabels } from './components/labels.js';
export type { SessionLabels } from './components/session/session-labels.js';
export { ReceivedOutcome } from './components/received-outcome.js';
export type { ReceivedOutcomeProps } from './components/received-outcome.js';
export { useSession, useSessionBinding } from './use-session.js';
export type { UseSessionOptions } from './use-session.js';
export { useSessionSelector } from './use-session-selector.js';
export type { SessionBinding, UseSessionResult } from './types.js';
export { SessionView } from './components/session/session-view.js';
export type { SessionViewProps } from './components/session/session-view.js';
export { Session } from './components/session/session-parts.js';
export type { SessionRootProps } from './components/session/session-root.js';
export type { SessionThreadProps } from './components/session/session-thread.js';
export type { SessionComposerProps, ComposerState } from './components/session/session-composer.js';
export type { SessionLoadOlderProps } from './components/session/session-load-older.js';
export type { SessionJumpToLatestProps } from './components/session/session-jump-to-latest.js';
export type { SessionStatusProps } from './components/session/session-status.js';
export { failureReason } from './components/session/failure-reason.js';
export type { FailureReason } from './components/session/failure-reason.js';
