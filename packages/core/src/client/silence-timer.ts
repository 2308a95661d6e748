/** Restarts the wait (a byte arrived), or stops it for good. */
export interface SilenceTimer {
  reset(): void;
  stop(): void;
}

/**
 * Calls `onSilence` once `ms` pass without a `reset()`: the heartbeat and the body-read timeout. Starts at once.
 *
 * `reset()` only notes the time: a stream delivered one event per chunk (behind a proxy that flushes each event)
 * resets it tens of thousands of times a second, and clearing and setting a timer each time cost more than the
 * event. The one timer, when it fires, waits again for what is left of `ms` since the last reset, so it is re-armed
 * at most once per `ms`, never per chunk or message.
 */
export function startSilenceTimer(ms: number, onSilence: () => void): SilenceTimer {
  let lastReset = performance.now();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A timer takes at most 2^31 - 1 ms and fires at once beyond (Infinity included): wait that long, then again.
  const arm = (delay: number) => {
    timer = setTimeout(check, Math.min(delay, 2 ** 31 - 1));
  };
  function check() {
    if (stopped) return;
    const quiet = performance.now() - lastReset;
    if (quiet < ms) return arm(ms - quiet);
    stopped = true;
    onSilence();
  }
  arm(ms);
  return {
    reset: () => {
      lastReset = performance.now();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
