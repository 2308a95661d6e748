'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { useEffect, useState } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { ActionButton, type ActionButtonProps } from './action-button.js';
import { useKestrelLabels } from './labels.js';
import { usePartRun } from './run-context.js';

/** How long the button says "Copied" (or that copying failed) before it offers to copy again. */
export const COPY_FEEDBACK_MS = 2_000;

/** `idle` ready to copy, `copied` just now, `failed` when the browser refused (no clipboard, no permission). */
export type CopyState = 'idle' | 'copied' | 'failed';

// The settled answer only: a draft is not the answer, and a FAILED run's text is not one either.
const selectAnswer = (state: RunState): string | null =>
  state.phase === 'settled' && state.output?.status === 'COMPLETED' ? state.output.assistantText : null;

/** Props of `Run.Copy`: button attributes, composed with the kit's own (`onClick` runs yours first). */
export interface RunCopyProps extends ActionButtonProps {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
}

/**
 * Copies the answer to the clipboard: `output.assistantText` of a COMPLETED run, never the streamed draft (the
 * button appears only once the run has settled as COMPLETED). `data-kestrel-action="copy"`, `data-state` one of
 * {@link CopyState}: "Copied" for two seconds, or that the browser refused. Your `onClick` runs first; call
 * `event.preventDefault()` in it to copy something else yourself.
 *
 * @example
 * <Run.Copy asChild><MyIconButton aria-label="Copy answer" /></Run.Copy>
 */
export function RunCopy({ run: ownRun, labels, ...rest }: RunCopyProps) {
  const run = usePartRun(ownRun, 'Run.Copy');
  const answer = useRunSelector(run, selectAnswer);
  const t = useKestrelLabels(labels);
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  if (answer === null) return null;
  // Inside a promise, so a page without the clipboard API (plain http) fails like a refused permission.
  const copy = () =>
    void Promise.resolve()
      .then(() => navigator.clipboard.writeText(answer))
      .then(
        () => setState('copied'),
        () => setState('failed'),
      );
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
