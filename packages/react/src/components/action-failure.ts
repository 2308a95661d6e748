'use client';
import { useRef, useState } from 'react';

/**
 * For an action whose request can fail while nothing else changes (Stop: the run goes on): whether to say it failed,
 * and the way to act. The failure belongs to what it was about (`current`, read again when it failed: a run id, an
 * entry key) and to the latest press, so it is never shown beside the next run's button, nor after a later press went
 * through; `current` undefined (nothing to act on any more) forgets it.
 */
export function useActionFailure<K>(
  current: K | undefined,
): readonly [failed: boolean, act: (action: () => Promise<unknown>, about: () => K) => void] {
  const [failedFor, setFailedFor] = useState<{ readonly about: K } | null>(null);
  const presses = useRef(0);
  if (failedFor !== null && current === undefined) setFailedFor(null);
  const act = (action: () => Promise<unknown>, about: () => K) => {
    const press = (presses.current += 1);
    setFailedFor(null);
    action().catch(() => press === presses.current && setFailedFor({ about: about() }));
  };
  return [failedFor !== null && failedFor.about === current, act];
}
