'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { useEffect, useState } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { ActionButton, type ActionButtonProps } from './action-button.js';
import { useRunLabels } from './labels.js';
import { usePartRun } from './run-context.js';

/** How long the button says "Copied" (or that copying failed) before it offers to copy again. */
export const COPY_FEEDBACK_MS = 2_000;

/** `idle` ready to copy, `copied` just now, `failed` when the browser refused (no clipboard, no permission). */
export type CopyState = 'idle' | 'copied' | 'failed';

// The settled answer only: a draft is not the answer, and a FAILED run's text is not one either.
const selectAnswer = (state: RunState): string | null =>
  state.phase === 'settled' && state.status === 'COMPLETED' ? state.output.assistantText : null;

/** Props of `Run.Copy`: button attributes, composed with the kit's own (`onClick` runs yours first). */
export interface RunCopyProps extends ActionButtonProps {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
}

/** What `useCopyAnswer` gives a copy button of the app's own. */
export interface CopyAnswer {
  /** `output.assistantText` of a COMPLETED run; `null` before (a draft is never the answer) and for other outcomes. */
  readonly answer: string | null;
  /** `copied` for two seconds after a copy, `failed` when the browser refused, `idle` otherwise. */
  readonly state: CopyState;
  /** Copies the answer (nothing while `answer` is `null`). */
  readonly copy: () => void;
}

/**
 * What `Run.Copy` does, for a button of your own: the answer to copy, the feedback state and `copy()`. Inside
 * `Run.Root` it reads the root's run; elsewhere pass `run`.
 *
 * @example
 * const { answer, state, copy } = useCopyAnswer(run);
 * if (answer !== null) return <IconButton onClick={copy} aria-label={state === 'copied' ? 'Copied' : 'Copy answer'} />;
 */
export function useCopyAnswer(ownRun?: RunSource): CopyAnswer {
  const run = usePartRun(ownRun, 'useCopyAnswer');
  const answer = useRunSelector(run, selectAnswer);
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  // Inside a promise, so a page without the clipboard API (plain http) fails like a refused permission.
  const copy = () => {
    if (answer !== null)
      void Promise.resolve()
        .then(() => navigator.clipboard.writeText(answer))
        .then(
          () => setState('copied'),
          () => setState('failed'),
        );
  };
  return { answer, state, copy };
}

/**
 * Copies the answer to the clipboard: `output.assistantText` of a COMPLETED run, never the streamed draft (the
 * button appears only once the run has settled as COMPLETED). `data-kestrel-action="copy"`, `data-state` one of
 * {@link CopyState}: "Copied" for two seconds, or that the browser refused. Your `onClick` runs first; call
 * `event.preventDefault()` in it to copy something else yourself. With `asChild` the label is your element's: show
 * the feedback from `data-state`, or build the button on {@link useCopyAnswer}.
 *
 * @example
 * <Run.Copy asChild><MyIconButton aria-label="Copy answer" /></Run.Copy>
 */
export function RunCopy({ run: ownRun, labels, ...rest }: RunCopyProps) {
  const { answer, state, copy } = useCopyAnswer(usePartRun(ownRun, 'Run.Copy'));
  const t = useRunLabels(labels);
  if (answer === null) return null;
  return (
    <ActionButton
      {...rest}
      action="copy"
      data-state={state}
      label={state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : t.copy}
      act={copy}
    />
  );
}
