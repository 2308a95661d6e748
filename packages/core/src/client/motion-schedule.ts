import type { MotionScheduleOptions } from './types.js';

/** The schedule's figures with every default filled in; see {@link MotionScheduleOptions}. */
export type ResolvedMotionSchedule = Required<MotionScheduleOptions>;

export const defaultMotionSchedule: ResolvedMotionSchedule = {
  intervalMs: 50,
  latencyBudgetMs: 50,
  costMultiple: 3,
  maxIntervalMs: 100,
};

/** Decides, frame by frame, when a run store tells its subscribers about motion. Pure: the caller owns the clock. */
export interface MotionSchedule {
  /** Whether motion waiting since the last notification should be notified in the frame running at `now`. */
  isDue(now: number): boolean;
  /** Records what the subscribers of a motion notification took: from `start` until they (and their microtasks) ended. */
  recordCost(start: number, end: number): void;
}

// 60 Hz until measured; a frame estimate only comes from frames that followed each other while motion waited.
const FIRST_FRAME_MS = 1000 / 60;
const LONGEST_FRAME_MS = 100;
// Deltas arriving evenly over a gap wait between 0 and the gap: 95% of them wait less than 0.95 of it.
const P95_SHARE = 0.95;

function option(options: MotionScheduleOptions, key: keyof MotionScheduleOptions, infinite = false): number {
  const value = options[key] ?? defaultMotionSchedule[key];
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (!infinite && !Number.isFinite(value))) {
    const what = infinite ? 'a number of at least 0' : 'a finite number of at least 0';
    throw new RangeError(`motion.${key} must be ${what}, got ${String(value)}`);
  }
  return value;
}

/**
 * Fills in the defaults.
 *
 * @throws {RangeError} naming the option when one is not a number >= 0 (only `latencyBudgetMs` may be
 *   `Infinity`), or when `maxIntervalMs` is below `intervalMs`.
 */
export function resolveMotionSchedule(options: MotionScheduleOptions = {}): ResolvedMotionSchedule {
  const intervalMs = option(options, 'intervalMs');
  const latencyBudgetMs = option(options, 'latencyBudgetMs', true);
  const costMultiple = option(options, 'costMultiple');
  const maxIntervalMs =
    options.maxIntervalMs === undefined
      ? Math.max(intervalMs, defaultMotionSchedule.maxIntervalMs)
      : option(options, 'maxIntervalMs');
  if (maxIntervalMs < intervalMs) {
    throw new RangeError(`motion.maxIntervalMs (${maxIntervalMs}) must be at least motion.intervalMs (${intervalMs})`);
  }
  return { intervalMs, latencyBudgetMs, costMultiple, maxIntervalMs };
}

/*
 * Why this shape (figures in docs/performance.md):
 * - Frame-aligned: a notification lands in a frame callback, so what it renders is painted in that frame.
 * - `intervalMs` between notifications while motion keeps coming, taken at the frame nearest to it (50 ms is every
 *   3rd frame at 60 Hz, every 6th at 120 Hz): as few commits as useChat's 50 ms throttle.
 * - Shortened to keep the latency budget: with subscribers taking `cost`, deltas arriving evenly over a gap are shown
 *   after 0.95 * gap + cost at the 95th percentile, so the gap stays under (budget - cost) / 0.95, ending at the
 *   last frame that keeps it.
 * - Back-off: never shorter than `costMultiple` times the cost, so the subscribers keep at most about
 *   1 / costMultiple of the main thread. Where the two collide (a render too slow for the budget), the main thread
 *   wins; `maxIntervalMs` bounds the wait.
 * - Motion after a quiet spell is due on the next frame: the first words of an answer are never held back.
 */
export function createMotionSchedule(options: MotionScheduleOptions = {}): MotionSchedule {
  const { intervalMs, latencyBudgetMs, costMultiple, maxIntervalMs } = resolveMotionSchedule(options);
  let lastNotified = -Infinity;
  let frameMs = FIRST_FRAME_MS;
  let previousFrame: number | null = null;
  let cost = 0;

  const due = (now: number): boolean => {
    const elapsed = now - lastNotified;
    const backOff = costMultiple * cost;
    const wanted = Math.min(maxIntervalMs, Math.max(intervalMs, backOff));
    const allowed = Math.min(maxIntervalMs, Math.max((latencyBudgetMs - cost) / P95_SHARE, backOff));
    // The budget bounds the gap: due when the next frame would come after what it allows (the back-off still holds).
    if (allowed < wanted) return elapsed + frameMs > allowed && elapsed + frameMs / 2 >= backOff;
    return elapsed + frameMs / 2 >= wanted;
  };

  return {
    isDue(now) {
      if (previousFrame !== null) {
        const measured = now - previousFrame;
        if (measured > 0 && measured <= LONGEST_FRAME_MS) frameMs = 0.75 * frameMs + 0.25 * measured;
      }
      if (!due(now)) {
        previousFrame = now;
        return false;
      }
      lastNotified = now;
      previousFrame = null;
      return true;
    },
    recordCost(start, end) {
      const took = Math.max(0, end - start);
      cost = cost === 0 ? took : 0.5 * cost + 0.5 * took;
    },
  };
}
