import { useLayoutEffect } from 'react';
import type { UseRunResult } from '../types.js';
import { useRun } from '../use-run.js';
import type { UseRunOptions } from '../use-run-binding.js';

/** Where a test reaches the hook's latest result to call its actions. */
export interface ProbeHandle<P = unknown> {
  current: UseRunResult<P> | null;
}

/** Renders what a person would see of a run, as data attributes and text, and exposes the hook to the test. */
export function RunProbe<P>({ probe: probeRef, options }: { probe: ProbeHandle<P>; options?: UseRunOptions<P> }) {
  const run = useRun(options);
  useLayoutEffect(() => {
    probeRef.current = run;
  });
  const { state } = run;
  return (
    <section
      data-testid="run"
      data-phase={state.phase}
      data-status={state.status ?? ''}
      data-error={state.error?.kind ?? ''}
      data-attempt={state.attempt ?? ''}
      data-payload={state.payload?.status ?? ''}
    >
      <p data-testid="draft">{state.draftText}</p>
      <p data-testid="answer">{state.output?.assistantText ?? ''}</p>
    </section>
  );
}

export function createProbe<P = unknown>(): ProbeHandle<P> {
  return { current: null };
}
