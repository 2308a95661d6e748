/** Restarts the wait (a byte arrived), or stops it for good. */
export interface SilenceTimer {
  reset(): void;
  stop(): void;
}

/** Calls `onSilence` once `ms` pass without a `reset()`: the heartbeat and the body-read timeout. Starts at once. */
export function startSilenceTimer(ms: number, onSilence: () => void): SilenceTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reset = () => {
    clearTimeout(timer);
    timer = setTimeout(onSilence, ms);
  };
  reset();
  return { reset, stop: () => clearTimeout(timer) };
}
