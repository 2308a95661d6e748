import { AssistantText } from './assistant-text.js';
import { FinishNotice } from './finish-notice.js';
import { memoPart } from './memo-part.js';
import { InteractionPrompt } from './interaction-prompt.js';
import { PayloadPanel } from './payload-panel.js';
import { ReceivedOutcome } from './received-outcome.js';
import { RunActivity } from './run-activity.js';
import { RunCancel } from './run-cancel.js';
import { RunConnection } from './run-connection.js';
import { RunCopy } from './run-copy.js';
import { RunErrorAlert } from './run-error-alert.js';
import { RunOutcome, RunRetry } from './run-outcome.js';
import { RunRoot } from './run-root.js';
import { RunStatus } from './run-status.js';

/**
 * The parts of a run view, Radix style: `Run.Root` provides the run, every other part reads it. `RunView` is
 * `Run.Root` with all of them in a default order; recompose them to reorder, replace or leave parts out. Each part
 * (all but `Root`) re-renders only when its own slice of the run or its props change, also under a component that
 * re-renders with `useRun` on every delta.
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
  Status: memoPart(RunStatus),
  Connection: memoPart(RunConnection),
  Activity: memoPart(RunActivity),
  Outcome: memoPart(RunOutcome),
  Retry: memoPart(RunRetry),
  Text: memoPart(AssistantText),
  FinishNotice: memoPart(FinishNotice),
  Copy: memoPart(RunCopy),
  Prompt: memoPart(InteractionPrompt),
  Payload: memoPart(PayloadPanel),
  Error: memoPart(RunErrorAlert),
  ReceivedOutcome: memoPart(ReceivedOutcome),
  Cancel: memoPart(RunCancel),
} as const;
