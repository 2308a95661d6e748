/** Subscribes a wake-up callback; returns the unsubscribe function. */
export type WakeSource = (wake: () => void) => () => void;

/**
 * Waits `ms` (forever when not finite), or less when the signal aborts or `wakeOn` fires: a cancel must reach a
 * stream that is pacing or stalled without waiting for the timer.
 */
export function sleep(ms: number, signal: AbortSignal, wakeOn?: WakeSource): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) {
      resolve();
      return;
    }
    const cleanups: (() => void)[] = [];
    const done = () => {
      for (const cleanup of cleanups.splice(0)) cleanup();
      resolve();
    };
    if (Number.isFinite(ms)) {
      const timer = setTimeout(done, ms);
      cleanups.push(() => clearTimeout(timer));
    }
    signal.addEventListener('abort', done);
    cleanups.push(() => signal.removeEventListener('abort', done));
    if (wakeOn !== undefined) cleanups.push(wakeOn(done));
  });
}
