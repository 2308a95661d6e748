import type { RunAction } from '../run/run-action.js';
import type { RunEffect } from '../run/run-effect.js';
import { transitionRun } from '../run/reduce-run.js';
import type { RunState } from '../run/run-state.js';
import type { FrameScheduler, RunSource } from './types.js';

/** A run state behind `transitionRun`, whose subscribers hear about motion at most once per frame. */
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

function reportListenerError(error: unknown): void {
  // A throwing listener must not stop the others nor the stream; surface it the way an event handler would.
  setTimeout(() => {
    throw error;
  }, 0);
}

export function createRunStore<P>(initial: RunState<P>, scheduler: FrameScheduler): RunStore<P> {
  let state = initial;
  const listeners = new Set<() => void>();
  const effectListeners = new Set<(effect: RunEffect) => void>();
  let pending: { handle: unknown } | null = null;

  const notify = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        reportListenerError(error);
      }
    }
  };

  const onFrame = () => {
    pending = null;
    notify();
  };

  return {
    getState: () => state,
    subscribe: (listener) => {
      const entry = () => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    subscribeEffects: (listener) => {
      const entry = (effect: RunEffect) => listener(effect);
      effectListeners.add(entry);
      return () => {
        effectListeners.delete(entry);
      };
    },
    dispatch: (action) => {
      const previous = state;
      const { state: next, effects } = transitionRun(previous, action);
      if (next === previous) return state;
      state = next;
      // The one place effects are run: before anyone is notified, so a listener never sees an outcome unreported.
      for (const effect of effects) {
        for (const listener of [...effectListeners]) {
          try {
            listener(effect);
          } catch (error) {
            reportListenerError(error);
          }
        }
      }
      if (isUrgent(previous, next, action)) {
        if (pending !== null) {
          scheduler.cancel(pending.handle);
          pending = null;
        }
        notify();
      } else if (pending === null) {
        const slot: { handle: unknown } = { handle: undefined };
        pending = slot;
        slot.handle = scheduler.request(() => {
          if (pending === slot) onFrame();
        });
      }
      return state;
    },
  };
}
