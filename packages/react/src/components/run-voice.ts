'use client';
import type { RunSource } from '@kestrel/core';
import { useLayoutEffect, useRef, type RefObject } from 'react';

/** What a part says aloud about a run: its status sentence, its settled answer, or what broke (an alert). */
export type RunVoiceKind = 'status' | 'answer' | 'error';

type Key = RunSource<unknown>['getState'];
interface Said {
  readonly moment: unknown;
  readonly by: object;
}

/*
 * Two views of one run (a `<RunView>` in the page and a `Run.Status` in a header, say) would each announce every
 * outcome, and a screen reader would hear it twice. So each moment (a status sentence, a settled answer, an error)
 * is said by one part: the first visible one to reach it, recorded here per run and kind. The others show the same
 * text, silent. Decided when the moment is committed, not by which part mounted first: a part that leaves in the
 * commit that brings the outcome cannot take the announcement with it. Keyed by the run's `getState`: what
 * `useRun` returns is a new object on every change, holding the same functions.
 */
const saidByRun = new WeakMap<Key, Partial<Record<RunVoiceKind, Said>>>();

/**
 * Whether the part `by` says `moment` (compared with `===`) for the run whose `getState` is `key`: yes when no
 * other part has said it, and again for the part that did (React runs a StrictMode effect twice). A part whose
 * element is not rendered (`display: none`, or inside a hidden panel) is not heard, so it leaves the moment to one
 * that is.
 */
export function claimVoice(
  key: Key,
  kind: RunVoiceKind,
  moment: unknown,
  by: object,
  element: Element | null,
): boolean {
  if (element !== null && typeof element.checkVisibility === 'function' && !element.checkVisibility()) return false;
  let said = saidByRun.get(key);
  if (said === undefined) {
    said = {};
    saidByRun.set(key, said);
  }
  const last = said[kind];
  if (last !== undefined && last.moment === moment && last.by !== by) return false;
  said[kind] = { moment, by };
  return true;
}

/**
 * Says `moment` from this part's element or keeps it silent, in the commit that shows it (before the browser hands
 * the change to a screen reader): a status is `aria-live="polite"` or `"off"`; an error keeps `role="alert"` or
 * drops it (an alert is heard when it appears). A status saying what broke (`error`, the run's current error) leaves
 * it to an alert: it looks once the commit is done, when every alert has had its turn, and says it itself only when
 * no shown `Run.Error` did.
 */
export function useVoice(
  run: RunSource<unknown>,
  kind: 'status' | 'error',
  moment: unknown,
  element: RefObject<Element | null>,
  error?: unknown,
): void {
  const key = run.getState;
  const token = useRef<object>(null);
  token.current ??= {};
  useLayoutEffect(() => {
    const node = element.current;
    if (node === null) return;
    const speaks = claimVoice(key, kind, moment, token.current!, node);
    if (kind === 'error') {
      if (speaks) node.setAttribute('role', 'alert');
      else node.removeAttribute('role');
      return;
    }
    const live = (on: boolean) => node.setAttribute('aria-live', on ? 'polite' : 'off');
    live(speaks && error === undefined);
    // A later commit in the same task (a retry started at once) has moved on: its own effect decides then.
    let current = true;
    if (speaks && error !== undefined)
      queueMicrotask(() => {
        if (current) live(saidByRun.get(key)?.error?.moment !== error);
      });
    return () => {
      current = false;
    };
  }, [key, kind, moment, element, error]);
}
