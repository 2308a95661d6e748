import { createManualFrameScheduler, getScenario, scenarioEvents } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { parseRunEvent } from '../protocol/parse-run-event.js';
import { createInitialRunState } from '../run/run-state.js';
import { createRunStore } from './run-store.js';

const events = scenarioEvents(getScenario('tool-error').steps).map(parseRunEvent);

function started() {
  const frames = createManualFrameScheduler();
  const store = createRunStore(createInitialRunState(), frames.scheduler);
  const seen: { phase: string; eventCount: number }[] = [];
  const { subscribe, getState } = store; // unbound, as useSyncExternalStore calls them
  subscribe(() => seen.push({ phase: getState().phase, eventCount: getState().events.length }));
  store.dispatch({ type: 'client/start-requested', mode: 'start' });
  store.dispatch({ type: 'client/connected' });
  return { frames, store, seen };
}

describe('run store notification batching', () => {
  it('notifies motion at most once per frame, with every event of the frame in the state', () => {
    const { frames, store, seen } = started();
    for (const event of events.slice(0, 4)) store.dispatch(event); // the opening: run.started names the run
    frames.frame();
    seen.length = 0;
    const motion = events.slice(4, 12); // tool, log, progress and text events
    expect(new Set(motion.map((event) => event.type))).toEqual(
      new Set(['tool.started', 'log', 'tool.completed', 'progress', 'text.delta']),
    );
    for (const event of motion) store.dispatch(event);
    expect(seen).toEqual([]); // nothing before the frame
    expect(frames.pending).toBe(1);
    frames.frame();
    expect(seen).toEqual([{ phase: 'streaming', eventCount: 12 }]);
    frames.frame();
    expect(seen).toHaveLength(1);
  });

  it('flushes run.completed at once, cancelling the pending frame, with the earlier motion included', () => {
    const { frames, store, seen } = started();
    for (const event of events.slice(0, -1)) store.dispatch(event);
    seen.length = 0;
    store.dispatch(events.at(-1)!);
    expect(seen).toEqual([{ phase: 'settled', eventCount: events.length }]);
    expect(frames.pending).toBe(0);
    expect(store.getState().output?.status).toBe('COMPLETED');
  });

  it('flushes phase changes and errors immediately', () => {
    const { frames, store, seen } = started();
    expect(seen.map((entry) => entry.phase)).toEqual(['connecting', 'streaming']);
    store.dispatch(events[0]!);
    store.dispatch({ type: 'client/reconnecting', attempt: 1, delayMs: 10, reason: 'connection dropped' });
    expect(seen.at(-1)).toEqual({ phase: 'reconnecting', eventCount: 1 });
    store.dispatch({ type: 'client/connection-lost', message: 'gone' });
    expect(seen.at(-1)).toEqual({ phase: 'error', eventCount: 1 });
    expect(frames.pending).toBe(0);
  });

  it('does not notify for duplicates, and unsubscribe stops notifications', () => {
    const { frames, store, seen } = started();
    store.dispatch(events[0]!);
    frames.frame();
    const count = seen.length;
    store.dispatch(events[0]!);
    frames.frame();
    expect(seen).toHaveLength(count);

    const extra: number[] = [];
    const unsubscribe = store.subscribe(() => extra.push(1));
    store.dispatch({ type: 'client/detached' });
    unsubscribe();
    unsubscribe();
    store.dispatch({ type: 'client/start-requested', mode: 'start' });
    expect(extra).toEqual([1]);
  });

  it('keeps notifying the other listeners when one throws', async () => {
    const { store } = started();
    const calls: string[] = [];
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      store.subscribe(() => {
        throw new Error('listener bug');
      });
      store.subscribe(() => calls.push('second'));
      store.dispatch({ type: 'client/detached' });
      expect(calls).toEqual(['second']);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(errors).toHaveLength(1);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
