import { addListener, callAll } from '../callbacks.js';
import type { RunAction } from '../run/run-action.js';
import type { RunEffect } from '../run/run-effect.js';
import { transitionRun } from '../run/reduce-run.js';
import type { RunState } from '../run/run-state.js';
import { createMotionSchedule, defaultMotionSchedule } from './motion-schedule.js';
import type { FrameScheduler, MotionScheduleOptions, RunSource } from './types.js';

/** A run state behind `transitionRun`, whose subscribers hear about motion in frames its motion schedule picks. */
export interface RunStore<P> extends RunSource<P> {
  /** Applies one action through `transitionRun`; returns the new state. */
  dispatch(action: RunAction): RunState<P>;
  /**
   * Calls `listener` with each effect of each transition, in order, once the new state is current and before
   * `subscribe` listeners hear of the change. Returns the unsubscribe function.
   */
  subscribeEffects(listener: (effect: RunEffect) => void): () => void;
}

/*
 * Motion (deltas, progress, logs, tools, unknown events) only changes what is drawn, so a frame's worth is drawn
 * once. Anything a person or the app must react to at once (a phase change, reconnect info, an error, the
 * terminal event) notifies immediately; since the state is always current, that notification carries every
 * earlier event too.
 */
function isUrgent<P>(previous: RunState<P>, next: RunState<P>, action: RunAction): boolean {
  return (
    action.type === 'run.completed' ||
    previous.phase !== next.phase ||
    previous.reconnect !== next.reconnect ||
    previous.error !== next.error ||
    previous.runId !== next.runId
  );
}

const hostNow = (): number => globalThis.performance?.now() ?? Date.now();

export function createRunStore<P>(
  initial: RunState<P>,
  scheduler: FrameScheduler,
  motion: MotionScheduleOptions = defaultMotionSchedule,
): RunStore<P> {
  let state = initial;
  const listeners = new Set<() => void>();
  const effectListeners = new Set<(effect: RunEffect) => void>();
  let pending: { handle: unknown } | null = null;
  const schedule = createMotionSchedule(motion);
  const clock = scheduler.now;
  const now = clock === undefined ? hostNow : () => clock.call(scheduler);

  const notify = () => callAll(listeners);

  const onFrame = (slot: { handle: unknown }) => {
    if (pending !== slot) return;
    const start = now();
    if (!schedule.isDue(start)) {
      slot.handle = scheduler.request(() => onFrame(slot));
      return;
    }
    pending = null;
    notify();
    // A React subscriber renders in a microtask queued while it was notified, before this one: its cost counts.
    queueMicrotask(() => schedule.recordCost(start, now()));
  };

  return {
    getState: () => state,
    subscribe: (listener) => addListener(listeners, listener),
    subscribeEffects: (listener) => addListener(effectListeners, listener),
    dispatch: (action) => {
      const previous = state;
      const { state: next, effects } = transitionRun(previous, action);
      if (next === previous) return state;
      state = next;
      // The one place effects are run: before anyone is notified, so a listener never sees an outcome unreported.
      for (const effect of effects) callAll(effectListeners, effect);
      if (isUrgent(previous, next, action)) {
        if (pending !== null) {
          scheduler.cancel(pending.handle);
          pending = null;
        }
        notify();
      } else if (pending === null) {
        const slot: { handle: unknown } = { handle: undefined };
        pending = slot;
        slot.handle = scheduler.request(() => onFrame(slot));
      }
      return state;
    },
  };
}
