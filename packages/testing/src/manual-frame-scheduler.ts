import type { FrameScheduler } from '@kestrel/core';

/** A frame scheduler a test advances by hand (`frame()`), to count renders per frame deterministically; made by `createManualFrameScheduler`. */
export interface ManualFrameScheduler {
  /** Pass it as the run client's `scheduler`. */
  readonly scheduler: FrameScheduler;
  /** Callbacks waiting for the next frame. */
  readonly pending: number;
  /** How many frames have run. */
  readonly frames: number;
  /** Runs one frame: every callback requested so far. */
  frame(): void;
}

/**
 * A frame scheduler that runs frames only when the test says so, to count notifications and renders per frame.
 *
 * @example
 * const frames = createManualFrameScheduler();
 * const client = createRunClient({ baseUrl, scheduler: frames.scheduler });
 * frames.frame();
 */
export function createManualFrameScheduler(): ManualFrameScheduler {
  const queue = new Map<number, () => void>();
  let next = 0;
  let frames = 0;
  return {
    scheduler: {
      request(callback) {
        queue.set(++next, callback);
        return next;
      },
      cancel(handle) {
        queue.delete(handle as number);
      },
    },
    get pending() {
      return queue.size;
    },
    get frames() {
      return frames;
    },
    frame() {
      frames += 1;
      const callbacks = [...queue.values()];
      queue.clear();
      for (const callback of callbacks) callback();
    },
  };
}
