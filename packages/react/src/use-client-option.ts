'use client';
import { createRunClient, type RunClient } from '@kestrel/core';
import { useContext, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { KestrelContext, type KestrelContextValue } from './kestrel-context.js';

function missingClient(hook: string): never {
  throw new Error(`${hook} needs a run client: pass \`client\` or \`baseUrl\`, or render it inside <KestrelProvider>`);
}

/**
 * The client a hook uses: its own `client`, else one made from `baseUrl`, else the provider's. Throws an error
 * naming the hook when there is none, instead of failing on the first request.
 */
export function useClientOption(
  hook: string,
  givenClient: RunClient | undefined,
  baseUrl: string | undefined,
): { readonly client: RunClient; readonly context: KestrelContextValue | null } {
  const context = useContext(KestrelContext);
  const ownClient = useMemo(
    () => (givenClient === undefined && baseUrl !== undefined ? createRunClient({ baseUrl }) : null),
    [givenClient, baseUrl],
  );
  return { client: givenClient ?? ownClient ?? context?.client ?? missingClient(hook), context };
}

/**
 * Calls `release(key)` when the component unmounts or `key` changes. StrictMode unmounts and remounts
 * synchronously: the release waits a microtask and is called off when the same key mounts again, so the double
 * effect lets nothing go.
 */
export function useReleaseOnUnmount<K extends object>(key: K, release: (key: K) => void): void {
  const latest = useRef(release);
  useLayoutEffect(() => {
    latest.current = release;
  });
  const pending = useRef<{ readonly key: K; cancelled: boolean } | null>(null);
  useEffect(() => {
    if (pending.current !== null && pending.current.key === key) pending.current.cancelled = true;
    pending.current = null;
    return () => {
      const next = { key, cancelled: false };
      pending.current = next;
      queueMicrotask(() => {
        if (!next.cancelled) latest.current(key);
      });
    };
  }, [key]);
}
