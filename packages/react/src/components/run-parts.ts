import { AssistantText } from './assistant-text.js';
import { FinishNotice } from './finish-notice.js';
import { InteractionPrompt } from './interaction-prompt.js';
import { PayloadPanel } from './payload-panel.js';
import { ReceivedOutcome } from './received-outcome.js';
import { RunActivity } from './run-activity.js';
import { RunCancel } from './run-cancel.js';
import { RunConnection } from './run-connection.js';
import { RunErrorAlert } from './run-error-alert.js';
import { RunOutcome, RunRetry } from './run-outcome.js';
import { RunRoot } from './run-root.js';
import { RunStatus } from './run-status.js';

/**
 * The parts of a run view, Radix style: `Run.Root` provides the run, every other part reads it. `RunView` is
 * `Run.Root` with all of them in a default order; recompose them to reorder, replace or leave parts out.
 *
 * @example
 * <Run.Root run={run}>
 *   <Run.Status className="sr-only" />
 *   <Run.Connection />
 *   <Run.Outcome />
 *   <Run.Text />
 *   <Run.Cancel />
 * </Run.Root>
 */
export const Run = {
  Root: RunRoot,
  Status: RunStatus,
  Connection: RunConnection,
  Activity: RunActivity,
  Outcome: RunOutcome,
  Retry: RunRetry,
  Text: AssistantText,
  FinishNotice,
  Prompt: InteractionPrompt,
  Payload: PayloadPanel,
  Error: RunErrorAlert,
  ReceivedOutcome,
  Cancel: RunCancel,
} as const;
