'use client';
import type { RunSource } from '@kestrel/core';
import type { RefObject } from 'react';

/** The parts whose absence the check below names: the payload panel and the question. */
export type ShownPart = 'payload' | 'interaction';

/**
 * Per run (keyed by its `getState`, as in run-voice.ts), how many mounted parts show each: the kit's `Run.Payload`
 * and `Run.Prompt` wherever they are (another view of the run, a portal, a lazy child), and a question an app shows
 * with `useInteraction`.
 */
const shownParts = new WeakMap<object, Map<ShownPart, number>>();

/** Which roots warned about which run and part: once each, per root (two compositions of one run may both be wrong). */
const warnedByRoot = new WeakMap<object, Set<string>>();

/**
 * Development only (call it from an effect behind `process.env.NODE_ENV !== 'production'`, which bundlers fold away):
 * counts a mounted part that shows `part` of `run`. Returns the effect's cleanup.
 */
export function markShown(run: RunSource<unknown>, part: ShownPart): () => void {
  let counts = shownParts.get(run.getState);
  if (counts === undefined) shownParts.set(run.getState, (counts = new Map()));
  const shown = counts;
  shown.set(part, (shown.get(part) ?? 0) + 1);
  return () => void shown.set(part, (shown.get(part) ?? 1) - 1);
}

/** How long after the outcome the check waits: a lazy part under `<Suspense>` has mounted by then. */
export const DROPPED_PART_CHECK_MS = 1_000;

/**
 * Development only, like `markShown`: once the run shown by a `Run.Root` settles, warns when nothing shows what the
 * outcome carries. A recomposition without `Run.Payload` drops a COMPLETED run's `finalizedPayload` without a
 * sound, one without `Run.Prompt` leaves a WAITING run's question unseen: the two readings this kit exists to make
 * hard to get wrong. Shown means a kit part for the run is mounted anywhere, a question is shown through
 * `useInteraction`, or the root holds the app's own element marked `data-kestrel-part`. Once per root, run and part.
 */
export function warnDroppedParts(root: RefObject<HTMLElement | null>, run: RunSource<unknown>): void {
  const element = root.current;
  const state = run.getState();
  if (element === null || state.phase !== 'settled') return;
  const missing =
    state.status === 'COMPLETED' && state.payload !== null && state.payload.status !== 'absent'
      ? ({ part: 'payload', name: 'Run.Payload', what: 'its structured result (finalizedPayload)' } as const)
      : state.status === 'WAITING'
        ? ({ part: 'interaction', name: 'Run.Prompt', what: 'the question it waits on' } as const)
        : null;
  if (
    missing === null ||
    (shownParts.get(run.getState)?.get(missing.part) ?? 0) > 0 ||
    element.querySelector(`[data-kestrel-part="${missing.part}"]`) !== null
  )
    return;
  let warned = warnedByRoot.get(root);
  if (warned === undefined) warnedByRoot.set(root, (warned = new Set()));
  const key = `${missing.part} ${state.runId ?? ''} ${state.attempt ?? ''}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(
    `[kestrel] Run ${state.runId ?? '(unknown)'} settled ${state.status} with ${missing.what}, but this <Run.Root> renders no <${missing.name}>, so the person never sees it. Add <${missing.name} /> to the composition (or use <RunView>); if you show it with your own markup, mark that element data-kestrel-part="${missing.part}".`,
  );
}
