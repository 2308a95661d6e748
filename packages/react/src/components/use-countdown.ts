import { isInteractionExpired } from '@kestrel/core';
import { useEffect, useState } from 'react';

/**
 * Milliseconds left until `expiresAt` (ISO), ticking every second; `null` when there is no expiry, and also `null`
 * until mounted: the clock is read only in an effect, never during render, so server markup and the hydrating first
 * render agree (the server rendered at an earlier moment) and the countdown appears right after hydration.
 */
export function useCountdown(expiresAt: string | undefined, now: () => number = Date.now): number | null {
  const deadline = expiresAt === undefined ? null : Date.parse(expiresAt);
  const [current, setCurrent] = useState<number | null>(null);
  useEffect(() => {
    if (deadline === null || Number.isNaN(deadline)) return undefined;
    const tick = () => {
      const time = now();
      setCurrent(time);
      return !isInteractionExpired(expiresAt, time);
    };
    if (!tick()) return undefined;
    const timer = setInterval(() => {
      if (!tick()) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, expiresAt, now]);
  // 0 exactly when isInteractionExpired says so, as respond() in core reads it.
  return deadline === null || Number.isNaN(deadline) || current === null ? null : Math.max(0, deadline - current);
}
