'use client';
import type { RetryMode, RunActions, RunOutput, RunSource, RunState } from '@kestrel/core';
import { useCallback, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { ActionButton, type ActionButtonProps } from './action-button.js';
import { useRunLabels, type KestrelLabels } from './labels.js';
import { usePartRun } from './run-context.js';

type FailedOutput = Extract<RunOutput, { status: 'FAILED' }>;
type CancelledOutput = Extract<RunOutput, { status: 'CANCELLED' }>;

// Only a settled run has an outcome of its own; an output kept after a protocol error is ReceivedOutcome's.
function selectStoppedOutput(state: RunState): FailedOutput | CancelledOutput | null {
  const output = state.phase === 'settled' ? state.output : null;
  return output?.status === 'FAILED' || output?.status === 'CANCELLED' ? output : null;
}

/** Props of `Run.Outcome`: the run whose FAILED or CANCELLED outcome to show, plus `div` attributes. */
export interface RunOutcomeProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource & Pick<RunActions, 'retry' | 'getRetryMode'>;
  readonly labels?: Partial<KestrelLabels>;
  /**
   * What stands for the retry button of a FAILED outcome: the kit's `Run.Retry` by default; your own (for example
   * `<Run.Retry asChild><Button /></Run.Retry>`, which is shown only when retry would act, unlike a bare button;
   * outside `Run.Root`, give it the same `run`), or `null` for none (you offer retry elsewhere).
   */
  readonly retry?: ReactNode;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * A settled run that stopped without an answer: FAILED ("The run failed", the message, the code and, when it can
 * act, `Run.Retry`) or CANCELLED ("The run was cancelled", who and why). `data-kestrel-part="outcome"` with
 * `data-status`. Renders nothing for any other state: COMPLETED and WAITING are shown by the text, payload and
 * prompt, and what broke on the way by `Run.Error`. Not a live region: `Run.Status` announces the outcome.
 *
 * @example
 * <Run.Outcome />
 */
export function RunOutcome({ run: ownRun, labels, retry, className, ref, ...rest }: RunOutcomeProps) {
  const run = usePartRun(ownRun, 'Run.Outcome');
  const output = useRunSelector(run, selectStoppedOutput);
  const t = useRunLabels(labels);
  if (output === null) return null;
  const common = { ...rest, ref, className, 'data-kestrel-part': 'outcome', 'data-status': output.status } as const;
  if (output.status === 'CANCELLED') {
    const { by, reason } = output.cancellation;
    return (
      <div {...common} data-cancelled-by={by}>
        <p data-kestrel-heading="">{t.cancelledTitle(by)}</p>
        {reason.trim() === '' ? null : <p>{t.cancelledReason(reason)}</p>}
      </div>
    );
  }
  return (
    <div {...common} data-retryable={output.error.retryable === true ? 'true' : 'false'}>
      <p data-kestrel-heading="">{t.failedTitle}</p>
      <p>{output.error.message}</p>
      <p>
        <code>{t.failedCode(output.error.code)}</code>
      </p>
      {/* Retryable but without the input to start again (resumed by id): still said, never a button that does nothing. */}
      {retry === undefined ? <RunRetry run={run} labels={labels} /> : retry}
    </div>
  );
}

function selectRetry(state: RunState, run: Pick<RunActions, 'getRetryMode'>): RetryMode | null {
  const output = selectStoppedOutput(state);
  return output?.status === 'FAILED' && output.error.retryable === true ? run.getRetryMode() : null;
}

/** Props of `Run.Retry`: button attributes, composed with the kit's own (`onClick` runs yours first). */
export interface RunRetryProps extends ActionButtonProps {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource & Pick<RunActions, 'retry' | 'getRetryMode'>;
}

/**
 * "Try again" for a retryable FAILED run, shown only when `run.getRetryMode()` says `retry()` would act (not for a
 * run resumed by id, which holds no input to start again with). `data-kestrel-action="retry"` and
 * `data-retry-mode`. Your `onClick` runs first and can `preventDefault()` the kit's retry.
 *
 * @example
 * <Run.Retry asChild><MyButton>Run it again</MyButton></Run.Retry>
 */
export function RunRetry({ run: ownRun, labels, ...rest }: RunRetryProps) {
  const run = usePartRun(ownRun, 'Run.Retry');
  const select = useCallback((state: RunState) => selectRetry(state, run), [run]);
  const mode = useRunSelector(run, select);
  const t = useRunLabels(labels);
  return mode === null ? null : (
    <ActionButton {...rest} data-retry-mode={mode} action="retry" label={t.retry} act={() => run.retry()} />
  );
}
