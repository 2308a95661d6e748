'use client';
import type { ReconnectInfo, RetryMode, RunOutput, RunPhase, RunState } from '@kestrel/core';
import { useCallback, type HTMLAttributes, type Ref } from 'react';
import type { RunBinding } from '../types.js';
import { useRunSelector } from '../use-run-selector.js';
import { AssistantText, type RenderText } from './assistant-text.js';
import { FinishNotice } from './finish-notice.js';
import { InteractionPrompt } from './interaction-prompt.js';
import { KestrelLabelsProvider, useKestrelLabels, type KestrelLabels } from './labels.js';
import { PayloadPanel, type RenderPayload } from './payload-panel.js';
import { ReceivedOutcome } from './received-outcome.js';
import { RunActivity } from './run-activity.js';
import { RunError } from './run-error.js';
import { RunStatus } from './run-status.js';
import { shallowEqual } from './shallow-equal.js';

interface ViewSlice {
  readonly phase: RunPhase;
  readonly output: RunOutput | null;
  readonly reconnect: ReconnectInfo | null;
  readonly runId: string | null;
  /** Whether the FAILED outcome's retry would act: a run resumed by id holds no input to start again with. */
  readonly retryMode: RetryMode | null;
}

// No draft text, no lastSeq: the frame re-renders on phase changes only, its parts on their own slices.
function selectView(state: RunState, run: Pick<RunBinding<unknown>, 'getRetryMode'>): ViewSlice {
  const output = state.phase === 'settled' ? state.output : null;
  const retryMode = output?.status === 'FAILED' ? run.getRetryMode() : null;
  return { phase: state.phase, output, reconnect: state.reconnect, runId: state.runId, retryMode };
}

/** Props of `RunView`, the drop-in whole-run view; `P` is the payload type, so `renderPayload` gets it typed. */
export interface RunViewProps<P> extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The run: what `useRun` returns, or any source plus actions. */
  readonly run: RunBinding<P>;
  /** Renders the structured payload of a COMPLETED run. Without it, a visible notice says it is not displayed. */
  readonly renderPayload?: RenderPayload<P>;
  /** Turns assistant text into elements; plain text by default (see `@kestrel/react/markdown`). */
  readonly renderText?: RenderText;
  readonly labels?: Partial<KestrelLabels>;
  /** Move focus to the interaction prompt when the run starts waiting. Default true. */
  readonly focusOnWait?: boolean;
  /** Open the activity panel on first render. Collapsed by default. */
  readonly activityOpen?: boolean;
  /** The clock for the interaction expiry countdown (tests, stories). */
  readonly now?: () => number;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * The drop-in view of a run. While it streams: activity (collapsed) and the draft, marked in progress. Once
 * settled it branches on the output status: COMPLETED shows the assistant text (with a note when its last turn did
 * not end normally, e.g. "Stopped at the length limit") and the app-rendered payload,
 * WAITING asks the interaction's question, FAILED shows code, message and, when retryable, a retry button if
 * `run.getRetryMode()` says retry would act (not for a run resumed by id, which has no input to start again with:
 * it keeps `data-retryable="true"` for the app to offer its own), CANCELLED who and why. Connection problems are shown as what they are, never as an outcome; an outcome received before a
 * protocol error is shown below the error, marked as received before it.
 *
 * @example
 * const run = useRun({ payloadSchema: invoiceSchema });
 * <RunView run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
 */
export function RunView<P>({ run, renderPayload, renderText, labels, focusOnWait, activityOpen, now, className, ref, ...rest }: RunViewProps<P>) {
  const select = useCallback((state: RunState<P>) => selectView(state, run), [run]);
  const { phase, output, reconnect, runId, retryMode } = useRunSelector(run, select, shallowEqual);
  const t = useKestrelLabels(labels);
  const live = phase === 'connecting' || phase === 'streaming' || phase === 'reconnecting';
  const body = (
    <section {...rest} ref={ref} className={className} data-kestrel-run="" data-phase={phase} data-status={output?.status}>
      <RunStatus run={run} />
      {phase === 'connecting' ? <p data-kestrel-part="connection" data-state="connecting">{t.connecting}</p> : null}
      {phase === 'reconnecting' && reconnect !== null ? (
        <p data-kestrel-part="connection" data-state="reconnecting">
          {t.reconnecting(reconnect.attempt, reconnect.reason)}
        </p>
      ) : null}
      {phase === 'detached' ? (
        <div data-kestrel-part="connection" data-state="detached">
          <p>{t.detached}</p>
          {runId === null ? null : (
            // Replayed whole, as retry does: resuming after lastSeq would start a fresh state mid-sentence.
            <button type="button" onClick={() => run.resume(runId)}>
              {t.followAgain}
            </button>
          )}
        </div>
      ) : null}
      <RunActivity run={run} defaultOpen={activityOpen} />
      {output?.status === 'FAILED' ? (
        <div data-kestrel-part="outcome" data-status="FAILED" data-retryable={output.error.retryable === true ? 'true' : 'false'}>
          <p data-kestrel-heading="">{t.failedTitle}</p>
          <p>{output.error.message}</p>
          <p>
            <code>{t.failedCode(output.error.code)}</code>
          </p>
          {/* Retryable but without the input to start again (resumed by id): still said, never a button that does nothing. */}
          {output.error.retryable === true && retryMode !== null ? (
            <button type="button" data-retry-mode={retryMode} onClick={() => run.retry()}>
              {t.retry}
            </button>
          ) : null}
        </div>
      ) : null}
      {output?.status === 'CANCELLED' ? (
        <div data-kestrel-part="outcome" data-status="CANCELLED" data-cancelled-by={output.cancellation.by}>
          <p data-kestrel-heading="">{t.cancelledTitle}</p>
          <p>
            {t.cancelledBy(output.cancellation.by)}: {output.cancellation.reason}
          </p>
        </div>
      ) : null}
      <AssistantText run={run} renderText={renderText} />
      <FinishNotice run={run} />
      <InteractionPrompt run={run} focusOnWait={focusOnWait} now={now} />
      <PayloadPanel run={run} renderPayload={renderPayload} />
      <RunError run={run} />
      <ReceivedOutcome run={run} renderText={renderText} renderPayload={renderPayload} />
      {live ? (
        <button type="button" data-kestrel-action="cancel" onClick={() => void run.cancel()}>
          {t.cancel}
        </button>
      ) : null}
    </section>
  );
  // The parts read labels from context, so a `labels` prop here reaches all of them.
  return labels === undefined ? body : <KestrelLabelsProvider labels={labels}>{body}</KestrelLabelsProvider>;
}
