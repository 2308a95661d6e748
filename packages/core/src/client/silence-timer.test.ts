import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSilenceTimer } from './silence-timer.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the silence timer (heartbeat and body-read timeout)', () => {
  it('is not re-armed per chunk: a thousand chunks within the timeout set one timer', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const onSilence = vi.fn();
    const timer = startSilenceTimer(1_000, onSilence);
    for (let chunk = 0; chunk < 1_000; chunk++) {
      vi.advanceTimersByTime(0.5);
      timer.reset();
    }
    expect(setTimer).toHaveBeenCalledTimes(1);
    // The timer fires at its first deadline, sees the recent bytes and waits once more for the rest.
    vi.advanceTimersByTime(600);
    expect(setTimer).toHaveBeenCalledTimes(2);
    expect(onSilence).not.toHaveBeenCalled();
    timer.stop();
  });

  it('waits at most the longest delay a timer holds (2^31 - 1 ms) at a time, so Infinity or a huge bound never spins', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const onSilence = vi.fn();
    for (const ms of [Number.POSITIVE_INFINITY, 2 ** 40]) {
      setTimer.mockClear();
      const timer = startSilenceTimer(ms, onSilence);
      vi.advanceTimersByTime(1_000);
      expect(setTimer).toHaveBeenCalledTimes(1);
      expect(setTimer.mock.calls[0]![1]).toBe(2 ** 31 - 1);
      timer.stop();
    }
    expect(onSilence).not.toHaveBeenCalled();
  });

  it('reports silence once the timeout passes after the last byte, and only once', () => {
    const onSilence = vi.fn();
    const timer = startSilenceTimer(1_000, onSilence);
    vi.advanceTimersByTime(900);
    timer.reset();
    vi.advanceTimersByTime(999);
    expect(onSilence).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onSilence).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(onSilence).toHaveBeenCalledTimes(1);
    timer.stop();
  });

  it('reports nothing once stopped, and leaves no timer behind', () => {
    const onSilence = vi.fn();
    startSilenceTimer(1_000, onSilence).stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect(onSilence).not.toHaveBeenCalled();
  });
});
