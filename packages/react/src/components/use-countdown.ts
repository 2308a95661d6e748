import { interactionTimeLeft } from '@kestrel/core';
import { useEffect, useState } from 'react';

/**
 * Milliseconds left until `expiresAt` (ISO), ticking every second; `null` when there is no expiry, and also `null`
 * until mounted: the clock is read only in an effect, never during render, so server markup and the hydrating first
 * render agree (the server rendered at an earlier moment) and the countdown appears right after hydration.
 */
export function useCountdown(expiresAt: string | undefined, now: () => number = Date.now): number | null {
  const [current, setCurrent] = useState<number | null>(null);
  useEffect(() => {
    if (interactionTimeLeft(expiresAt, 0) === null) return undefined; // no expiry, or none that reads as a date
    const tick = () => {
      const time = now();
      setCurrent(time);
      return interactionTimeLeft(expiresAt, time) !== 0;
    };
    if (!tick()) return undefined;
    const timer = setInterval(() => {
      if (!tick()) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, now]);
  // The same reading as respond() in core: 0 here is exactly when an answer would be refused as expired.
  return current === null ? null : interactionTimeLeft(expiresAt, current);
}
