'use client';
import type { RunSource } from '@kestrel/core';
import type { RefObject } from 'react';

let warned = new Set<string>();

/** Per run (keyed by its `getState`, as in run-voice.ts), the parts an app's own markup shows through the kit's hooks. */
const shownByHooks = new WeakMap<object, Map<string, number>>();

/**
 * Development only, like the warning: `useInteraction` tells the root that the app's own markup shows the question,
 * so a headless prompt under `Run.Root` is not taken for a missing one. Returns the cleanup for its effect.
 */
export function markShownByHook(run: RunSource<unknown>, part: 'interaction'): () => void {
  let counts = shownByHooks.get(run.getState);
  if (counts === undefined) shownByHooks.set(run.getState, (counts = new Map()));
  const shown = counts;
  shown.set(part, (shown.get(part) ?? 0) + 1);
  return () => void shown.set(part, (shown.get(part) ?? 1) - 1);
}

/**
 * Development only (call it behind `process.env.NODE_ENV !== 'production'`, which bundlers fold away): once the run
 * shown by a `Run.Root` settles, warns when the root holds no part for what the outcome carries. A recomposition
 * without `Run.Payload` drops a COMPLETED run's `finalizedPayload` without a sound, one without `Run.Prompt` leaves
 * a WAITING run's question unseen: the two readings this kit exists to make hard to get wrong. Read from the DOM
 * after the commit that shows the outcome (parts mark themselves with `data-kestrel-part`), once per run and part.
 */
export function warnDroppedParts(root: RefObject<HTMLElement | null>, run: RunSource<unknown>): void {
  const element = root.current;
  const state = run.getState();
  if (element === null || state.phase !== 'settled') return;
  const missing =
    state.status === 'COMPLETED' && state.payload !== null && state.payload.status !== 'absent'
      ? { part: 'payload', name: 'Run.Payload', what: 'its structured result (finalizedPayload)' }
      : state.status === 'WAITING'
        ? { part: 'interaction', name: 'Run.Prompt', what: 'the question it waits on' }
        : null;
  if (
    missing === null ||
    element.querySelector(`[data-kestrel-part="${missing.part}"]`) !== null ||
    (shownByHooks.get(run.getState)?.get(missing.part) ?? 0) > 0
  )
    return;
  const key = `${state.runId ?? ''} ${missing.part}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(
    `[kestrel] Run ${state.runId ?? '(unknown)'} settled ${state.status} with ${missing.what}, but this <Run.Root> renders no <${missing.name}>, so the person never sees it. Add <${missing.name} /> to the composition (or use <RunView>); if you show it with your own markup, mark that element data-kestrel-part="${missing.part}".`,
  );
}

/** Forgets which runs were warned about (tests). */
export function resetDroppedPartWarnings(): void {
  warned = new Set();
}
