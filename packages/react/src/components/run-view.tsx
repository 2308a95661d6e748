'use client';
import { memoPart } from './memo-part.js';
import { Run } from './run-parts.js';
import type { RunRootProps } from './run-root.js';

/** Props of `RunView`, the drop-in whole-run view: `Run.Root`'s (`P` types `renderPayload`), plus a few for its parts. */
export interface RunViewProps<P> extends Omit<RunRootProps<P>, 'asChild' | 'children'> {
  /** Move focus to the interaction prompt when the run starts waiting. Default true. */
  readonly focusOnWait?: boolean;
  /** Open the activity panel on first render. Collapsed by default. */
  readonly activityOpen?: boolean;
  /** The clock for the interaction expiry countdown (tests, stories). */
  readonly now?: () => number;
}

/**
 * The drop-in view of a run. While it streams: activity (collapsed) and the draft, marked in progress. Once
 * settled it branches on the output status: COMPLETED shows the assistant text (with a note when its last turn did
 * not end normally, e.g. "Stopped at the length limit"), a button that copies it, and the app-rendered payload,
 * WAITING asks the interaction's question, FAILED shows code, message and, when retryable, a retry button if
 * `run.getRetryMode()` says retry would act (not for a run resumed by id, which has no input to start again with:
 * it keeps `data-retryable="true"` for the app to offer its own), CANCELLED who and why. Connection problems are shown as what they are, never as an outcome; an outcome received before a
 * protocol error is shown below the error, marked as received before it.
 *
 * It is the default composition of the `Run` parts; recompose them to change order or markup. It and each part
 * re-render only when their own slice changes, also when `run` is what `useRun` returns (a new object on every
 * change): keep `renderPayload`, `renderText`, `tools` and `labels` stable (module-level or memoized) to keep it so.
 *
 * @example
 * const run = useRun({ payloadSchema: invoiceSchema, responseFormat: invoiceFormat });
 * <RunView run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
 */
export const RunView = memoPart(function RunView<P>({ focusOnWait, activityOpen, now, ...root }: RunViewProps<P>) {
  return (
    <Run.Root {...root}>
      <Run.Status />
      <Run.Connection />
      <Run.Activity defaultOpen={activityOpen} />
      <Run.Outcome />
      <Run.Text />
      <Run.FinishNotice />
      <Run.Copy />
      <Run.Prompt focusOnWait={focusOnWait} now={now} />
      <Run.Payload />
      <Run.Error />
      <Run.ReceivedOutcome />
      <Run.Cancel />
    </Run.Root>
  );
});
