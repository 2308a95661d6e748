'use client';
import { formatPath, type RetryMode, type RunError, type RunSource, type RunState } from '@kestrel/core';
import { useCallback, type HTMLAttributes, type Ref } from 'react';
import type { RunActions } from '../types.js';
import { useRunSelector } from '../use-run-selector.js';
import { useRunLabels, type KestrelLabels, type RunLabels } from './labels.js';
import { usePartRun } from './run-context.js';
import { useVoice } from './run-voice.js';
import { ActionButton } from './action-button.js';
import { useOwnElement } from './use-own-element.js';
import { shallowEqual } from './shallow-equal.js';

interface ErrorSlice {
  readonly error: RunError | null;
  readonly retryMode: RetryMode | null;
  readonly afterOutcome: boolean;
}

function selectError(state: RunState, run: Pick<RunActions, 'getRetryMode'>): ErrorSlice {
  return state.phase === 'error'
    ? { error: state.error, retryMode: run.getRetryMode(), afterOutcome: state.output !== null }
    : { error: null, retryMode: null, afterOutcome: false };
}

/** Props of `RunErrorAlert`: the run (with `retry` and `getRetryMode`) plus `div` attributes passed through. */
export interface RunErrorAlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /**
   * The run (inside `Run.Root`, the root's); `retry` resumes after a connection problem and starts again after a failed start request.
   * `getRetryMode()` decides whether the action is offered at all.
   */
  readonly run?: RunSource & Pick<RunActions, 'retry' | 'getRetryMode'>;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * What broke on the way to an outcome (connection lost, truncated stream, protocol error with seq and field,
 * HTTP error, timeout), as a `role="alert"` with a reconnect or retry action. It is not a run outcome and does
 * not look like one. The action appears only when `run.getRetryMode()` says retry would act: a protocol error
 * would only repeat itself, and a binding without the start input cannot start again. When the error came after `run.completed`, it says so: an outcome was received.
 * Renders nothing unless the run is in phase `error`. Its alert is the one announcement of what broke (every
 * `Run.Status` of the same run keeps the sentence silent); of two views of one run, one alerts (see run-voice.ts). Exported as `Run.Error` too.
 *
 * @example
 * <RunErrorAlert run={run} />
 */
export function RunErrorAlert({ run: ownRun, labels, className, ref, ...rest }: RunErrorAlertProps) {
  const run = usePartRun(ownRun, 'Run.Error');
  const select = useCallback((state: RunState) => selectError(state, run), [run]);
  const { error, retryMode, afterOutcome } = useRunSelector(run, select, shallowEqual);
  const t = useRunLabels(labels);
  const [own, setRef] = useOwnElement(ref);
  // Of two views of this run, one alerts; the other shows the same error without the alert role.
  useVoice(run, 'error', error, own, 'alert');
  if (error === null) return null;
  return (
    <div
      {...rest}
      ref={setRef}
      role="alert"
      className={className}
      data-kestrel-part="error"
      data-error-kind={error.kind}
    >
      <p data-kestrel-heading="">
        {error.kind === 'transport' && error.connection === 'none'
          ? t.errorUnreachable
          : t.errorTitle(error.kind, error.kind === 'http' ? error.status : null)}
      </p>
      {/* A truncated stream's message is the reducer's wording of the title: said once is enough. */}
      {error.kind === 'truncated' ? null : <p>{error.message}</p>}
      <ErrorDetail error={error} labels={t} />
      {afterOutcome ? <p data-kestrel-after-outcome="">{t.errorAfterOutcome}</p> : null}
      {retryMode === null ? null : (
        // An action button: when Reconnect or Try again takes the alert away with it, focus stays in the view.
        <ActionButton
          action={retryMode === 'resume' ? 'reconnect' : 'retry'}
          data-retry-mode={retryMode}
          label={t.errorAction(retryMode)}
          act={() => run.retry()}
        />
      )}
    </div>
  );
}

function ErrorDetail({ error, labels }: { error: RunError; labels: RunLabels }) {
  switch (error.kind) {
    case 'protocol': {
      const where = labels.errorProtocolWhere({
        seq: error.seq,
        field: formatPath(error.path),
        eventType: error.eventType,
      });
      return where === '' ? null : <p data-kestrel-where="">{where}</p>;
    }
    case 'truncated':
      return <p>{labels.errorTruncated(error.lastSeq)}</p>;
    case 'timeout':
      return <p>{labels.errorTimeout(error.timeoutMs)}</p>;
    case 'http':
      return error.code === null ? null : <p>{error.code}</p>;
    case 'transport':
      return null;
    default:
      return error satisfies never;
  }
}
