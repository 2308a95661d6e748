import { createEventFactory, createManualFrameScheduler } from '@kestrel/testing';
import { parseRunEvent } from '../protocol/parse-run-event.js';
import { createInitialRunState } from '../run/run-state.js';
import { createRunStore } from './run-store.js';
import type { MotionScheduleOptions } from './types.js';

/** A steady stream of text deltas against a run store, on a fake clock: what its subscribers would see. */
export interface MotionLoad {
  readonly eventsPerSecond: number;
  readonly seconds: number;
  /** The display's frame period. */
  readonly frameMs: number;
  /** What the subscribers take per notification (their render), in ms; may change over the stream. */
  readonly costMs: (elapsedMs: number) => number;
  readonly motion?: MotionScheduleOptions;
}

export interface MotionFigures {
  readonly notifications: number;
  readonly notificationsPerSecond: number;
  /** Share of the stream's time the subscribers took. */
  readonly busyShare: number;
  /** From a delta's arrival to the end of the render that shows it (a paint follows in the same frame). */
  readonly latencyP95Ms: number;
  readonly latencyMaxMs: number;
  /** The largest number of notifications within one frame. */
  readonly mostPerFrame: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function startedStore(
  frames: ReturnType<typeof createManualFrameScheduler>,
  motion: MotionScheduleOptions | undefined,
) {
  const store = createRunStore(createInitialRunState(), frames.scheduler, motion);
  store.dispatch({ type: 'client/start-requested', mode: 'start' });
  store.dispatch({ type: 'client/connected' });
  const e = createEventFactory({ runId: 'run_sim' });
  store.dispatch(parseRunEvent(e.started()));
  store.dispatch(parseRunEvent(e.received()));
  return { store, e };
}

/**
 * Plays `load` deterministically: deltas arrive evenly spaced, frames come every `frameMs` (later when the
 * subscribers still run), a subscriber advances the clock by the cost. No real time is read.
 */
export async function simulateMotion(load: MotionLoad): Promise<MotionFigures> {
  const frames = createManualFrameScheduler({ frameMs: 0 }); // this loop moves the clock itself
  const { store, e } = startedStore(frames, load.motion);
  const total = Math.round(load.eventsPerSecond * load.seconds);
  const spacing = 1000 / load.eventsPerSecond;
  const arrivals: number[] = [];
  const latencies: number[] = [];
  let busy = 0;
  let notifications = 0;
  let frameIndex = 0;
  let perFrame = 0;
  let mostPerFrame = 0;
  const start = frames.now;
  store.subscribe(() => {
    notifications += 1;
    perFrame += 1;
    const cost = load.costMs(frames.now - start);
    frames.advance(cost);
    busy += cost;
    for (const arrived of arrivals) latencies.push(frames.now - arrived);
    arrivals.length = 0;
  });
  let next = 0;
  // Bounded: a schedule that never notified would otherwise loop for ever; a second of frames past the stream is plenty.
  const lastFrame = Math.ceil((load.seconds * 1000 + 1000) / load.frameMs) * 4;
  while (next < total || arrivals.length > 0) {
    frameIndex += 1;
    if (frameIndex > lastFrame) throw new Error(`motion still unnotified after ${lastFrame} frames`);
    const frameAt = start + frameIndex * load.frameMs;
    if (frames.now > frameAt) continue; // the main thread was busy: this frame was dropped
    for (; next < total && start + next * spacing < frameAt; next += 1) {
      const arrival = start + next * spacing;
      if (arrival > frames.now) frames.advance(arrival - frames.now);
      arrivals.push(arrival);
      store.dispatch(parseRunEvent(e.text('x')));
    }
    frames.advance(frameAt - frames.now);
    perFrame = 0;
    frames.frame();
    mostPerFrame = Math.max(mostPerFrame, perFrame);
    await Promise.resolve(); // lets the store read what the subscribers took
  }
  const elapsed = frames.now - start;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    notifications,
    notificationsPerSecond: (notifications * 1000) / elapsed,
    busyShare: busy / elapsed,
    latencyP95Ms: percentile(sorted, 0.95),
    latencyMaxMs: sorted.at(-1) ?? 0,
    mostPerFrame,
  };
}
