import { useEffect, useState } from 'react';

/** Milliseconds left until `expiresAt` (ISO), ticking every second; `null` when there is no expiry. */
export function useCountdown(expiresAt: string | undefined, now: () => number = Date.now): number | null {
  const deadline = expiresAt === undefined ? null : Date.parse(expiresAt);
  const [current, setCurrent] = useState(now);
  useEffect(() => {
    if (deadline === null) return undefined;
    const timer = setInterval(() => {
      const time = now();
      setCurrent(time);
      if (time >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, now]);
  return deadline === null || Number.isNaN(deadline) ? null : Math.max(0, deadline - current);
}
