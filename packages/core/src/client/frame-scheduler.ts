import type { FrameScheduler } from './types.js';

/** A scheduler that runs callbacks after `ms` milliseconds: for servers, workers and tests. */
export function createTimerFrameScheduler(ms = 16): FrameScheduler {
  return {
    request: (callback) => setTimeout(callback, ms),
    cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

/**
 * `requestAnimationFrame` where the host has it (browsers), otherwise a 16 ms timer. Looked up on `globalThis` at
 * call time, so the core never needs the DOM.
 */
export function defaultFrameScheduler(): FrameScheduler {
  const host = globalThis as {
    requestAnimationFrame?: (callback: () => void) => number;
    cancelAnimationFrame?: (handle: number) => void;
  };
  const raf = host.requestAnimationFrame;
  const caf = host.cancelAnimationFrame;
  if (typeof raf !== 'function' || typeof caf !== 'function') return createTimerFrameScheduler();
  return {
    request: (callback) => raf.call(globalThis, () => callback()),
    cancel: (handle) => caf.call(globalThis, handle as number),
  };
}
