/** A timer that fires after `ms` without a {@link SilenceTimer.reset}: the heartbeat and the body-read timeout. */
export interface SilenceTimer {
  /** True once it fired. */
  readonly fired: boolean;
  /** Starts the wait again (a byte arrived). */
  reset(): void;
  stop(): void;
}

/** Starts at once; `onSilence` runs once, after `ms` of no `reset()`. */
export function startSilenceTimer(ms: number, onSilence: () => void): SilenceTimer {
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reset = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      onSilence();
    }, ms);
  };
  reset();
  return {
    get fired() {
      return fired;
    },
    reset,
    stop: () => clearTimeout(timer),
  };
}
