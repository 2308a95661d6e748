'use client';
import { useCallback, useRef, type Ref, type RefCallback, type RefObject } from 'react';

/** Gives `node` to a `ref` of the app's; what a callback ref returns (its cleanup) comes back. */
export function assignRef<T>(ref: Ref<T> | undefined, node: T | null): unknown {
  if (typeof ref === 'function') return ref(node);
  if (ref !== null && ref !== undefined) ref.current = node;
  return undefined;
}

/** A ref of the part's own element, passed on to the `ref` the app gave it (a cleanup it returns included). */
export function useOwnElement<T extends Element>(outer: Ref<T> | undefined): [RefObject<T | null>, RefCallback<T>] {
  const own = useRef<T | null>(null);
  const set = useCallback(
    (node: T | null) => {
      own.current = node;
      const cleanup = assignRef(outer, node);
      return () => {
        own.current = null;
        if (typeof cleanup === 'function') cleanup();
        else assignRef(outer, null);
      };
    },
    [outer],
  );
  return [own, set];
}
