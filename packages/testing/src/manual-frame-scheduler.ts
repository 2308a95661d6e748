import type { FrameScheduler } from '@kestrel/core';

/** Options of `createManualFrameScheduler`. */
export interface ManualFrameSchedulerOptions {
  /** How far the scheduler's clock moves at each `frame()`. Default 16 (about 60 Hz). */
  readonly frameMs?: number;
}

/** A frame scheduler a test advances by hand (`frame()`), to count renders per frame deterministically; made by `createManualFrameScheduler`. */
export interface ManualFrameScheduler {
  /** Pass it as the run client's `scheduler`; its `now()` is this scheduler's clock. */
  readonly scheduler: FrameScheduler;
  /** Callbacks waiting for the next frame. */
  readonly pending: number;
  /** How many frames have run. */
  readonly frames: number;
  /** The clock, in ms: `frameMs` per frame run, plus whatever `advance` added. */
  readonly now: number;
  /** Moves the clock forward by `ms` without running a frame: a subscriber that "takes" `ms`, or a quiet spell. */
  advance(ms: number): void;
  /** Moves the clock by `frameMs`, then runs one frame: every callback requested so far. */
  frame(): void;
}

/**
 * A frame scheduler that runs frames only when the test says so, with a clock that moves only when the test says
 * so, to count notifications and renders per frame and drive the motion schedule without timing.
 *
 * @example
 * const frames = createManualFrameScheduler();
 * const client = createRunClient({ baseUrl, scheduler: frames.scheduler });
 * frames.frame();
 */
export function createManualFrameScheduler(options: ManualFrameSchedulerOptions = {}): ManualFrameScheduler {
  const frameMs = options.frameMs ?? 16;
  if (!Number.isFinite(frameMs) || frameMs < 0) {
    throw new RangeError(`frameMs must be a finite number of at least 0, got ${String(frameMs)}`);
  }
  const queue = new Map<number, () => void>();
  let next = 0;
  let frames = 0;
  let now = 0;
  const advance = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${String(ms)}`);
    now += ms;
  };
  return {
    scheduler: {
      request(callback) {
        queue.set(++next, callback);
        return next;
      },
      cancel(handle) {
        queue.delete(handle as number);
      },
      now: () => now,
    },
    get pending() {
      return queue.size;
    },
    get frames() {
      return frames;
    },
    get now() {
      return now;
    },
    advance,
    frame() {
      now += frameMs;
      frames += 1;
      const callbacks = [...queue.values()];
      queue.clear();
      for (const callback of callbacks) callback();
    },
  };
}
