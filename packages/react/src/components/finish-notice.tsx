'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { Slot, Slottable } from './slot.js';
import type { HTMLAttributes, ReactElement, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useRunLabels, type KestrelLabels, type RunLabels } from './labels.js';
import { usePartRun } from './run-context.js';

/**
 * How a COMPLETED run's last root turn ended, when that is worth saying: the protocol's own non-`completed`
 * kinds, worded one by one, and `other` for a kind this kit does not know (a newer server's).
 */
export type FinishNoticeKind = 'max-tokens' | 'error' | 'tool-calls' | 'cancelled' | 'other';

/** Longest unknown kind shown as is; a longer one is cut with "…" so a server's string cannot swamp the view. */
const MAX_SHOWN_REASON = 60;

/**
 * The finish reason a notice qualifies the answer with, or `null` for none: only a settled COMPLETED run has an
 * answer to qualify (FAILED, CANCELLED and WAITING say why they stopped in their own words), and `completed`,
 * `null` (no root turn ended) and unknown (`undefined`) need no notice.
 */
export function selectFinishNoteReason(state: RunState): string | null {
  if (state.phase !== 'settled' || state.status !== 'COMPLETED') return null;
  const reason = state.finishReason;
  return reason === undefined || reason === null || reason === 'completed' ? null : reason;
}

/** The notice's kind for a finish reason other than `completed`. */
export function finishNoticeKind(reason: string): FinishNoticeKind {
  switch (reason) {
    case 'max-tokens':
    case 'error':
    case 'tool-calls':
    case 'cancelled':
      return reason;
    default:
      return 'other';
  }
}

/** The notice's words for a finish reason other than `completed` (what `FinishNotice` shows and `RunStatus` says). */
export function finishNoteText(labels: RunLabels, reason: string): string {
  const shown = reason.length > MAX_SHOWN_REASON ? `${reason.slice(0, MAX_SHOWN_REASON - 1)}…` : reason;
  return labels.finishNotice(finishNoticeKind(reason), shown);
}

/** Props of `FinishNotice`: the run whose finish reason to read, plus `p` attributes passed through. */
export interface FinishNoticeProps extends Omit<HTMLAttributes<HTMLParagraphElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
  readonly labels?: Partial<KestrelLabels>;
  /** Render your own element with the notice's attributes; the notice's words are appended to its children. */
  readonly asChild?: boolean;
  /** With `asChild`: the one element to render as the notice. */
  readonly children?: ReactElement;
  readonly ref?: Ref<HTMLParagraphElement>;
}

/**
 * A visible note on a COMPLETED run's answer when its last root turn did not end normally: "Stopped at the
 * length limit: the answer may be incomplete" for `max-tokens`, a neutral sentence for the other kinds (an
 * unknown kind is named as text). Renders nothing for `completed`, `null`, unknown, or a run that is not settled
 * COMPLETED. It is a `role="note"`, not a live region: `RunStatus` says the same words with the outcome, once.
 * Exported as `Run.FinishNotice` too.
 *
 * @example
 * <AssistantText run={run} />
 * <FinishNotice run={run} />
 */
export function FinishNotice({
  run: ownRun,
  labels,
  asChild = false,
  children,
  className,
  ref,
  ...rest
}: FinishNoticeProps) {
  const run = usePartRun(ownRun, 'Run.FinishNotice');
  const reason = useRunSelector(run, selectFinishNoteReason);
  const t = useRunLabels(labels);
  if (reason === null) return null;
  const Comp = asChild ? Slot : 'p';
  return (
    <Comp
      {...rest}
      ref={ref}
      role="note"
      className={className}
      data-kestrel-part="finish-notice"
      data-kind={finishNoticeKind(reason)}
      data-finish-reason={reason}
    >
      {asChild ? <Slottable>{children}</Slottable> : null}
      {finishNoteText(t, reason)}
    </Comp>
  );
}
