'use client';
import type { RunSource } from '@kestrel/core';
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';

/** What a part says aloud about a run: its status sentence, its settled answer, or what broke (an alert). */
export type RunVoiceKind = 'status' | 'answer' | 'error';

type Key = RunSource<unknown>['getState'];
type Claims = Record<RunVoiceKind, object[]>;

/*
 * Two views of one run (a `<RunView>` in the page and a `Run.Status` in a header, say) would each announce every
 * outcome, and a screen reader would hear it twice. Per run and kind, the parts that could speak are kept in the
 * order they mounted, and only the first speaks; when it unmounts, the next takes over. Keyed by the run's
 * `getState`: what `useRun` returns is a new object on every change, holding the same functions.
 */
const claimsByRun = new WeakMap<Key, Claims>();
const listeners = new Set<() => void>();

function claimsOf(key: Key): Claims {
  let claims = claimsByRun.get(key);
  if (claims === undefined) {
    claims = { status: [], answer: [], error: [] };
    claimsByRun.set(key, claims);
  }
  return claims;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const notify = () => listeners.forEach((listener) => listener());
const onServer = () => true;
const nobodyOnServer = () => false;

/**
 * Whether this part is the one that speaks `kind` for `run`: the first mounted of the parts of that kind showing
 * the same run, in any root. The others keep their text on the page and stay silent. Claimed in a layout effect,
 * so a part mounted beside another knows before anything can be announced.
 */
export function useRunVoice(run: RunSource<unknown>, kind: RunVoiceKind): boolean {
  const key = run.getState;
  const token = useRef<object>(null);
  token.current ??= {};
  useLayoutEffect(() => {
    const own = token.current!;
    const list = claimsOf(key)[kind];
    list.push(own);
    notify();
    return () => {
      list.splice(list.indexOf(own), 1);
      notify();
    };
  }, [key, kind]);
  const speaks = () => {
    const list = claimsOf(key)[kind];
    return list.length === 0 || list[0] === token.current;
  };
  return useSyncExternalStore(subscribe, speaks, onServer);
}

/** Whether any part of `kind` is mounted for `run`, in any root (a `Run.Error` says what broke, so the status need not). */
export function useRunVoiceClaimed(run: RunSource<unknown>, kind: RunVoiceKind): boolean {
  const key = run.getState;
  return useSyncExternalStore(subscribe, () => claimsOf(key)[kind].length > 0, nobodyOnServer);
}
