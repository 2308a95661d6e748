import { describe, expect, it } from 'vitest';
import {
  busyIntervalsFromTrace,
  busyMsBetween,
  frameCostSeries,
  mergeIntervals,
  msPerFrame,
  scheduleOf,
} from './frame-cost.js';

describe('busyIntervalsFromTrace', () => {
  const mark = { name: 'origin', cat: 'blink.user_timing', ph: 'R', pid: 1, tid: 7, ts: 1_000_000 };
  const task = (ts: number, dur: number, tid = 7) => ({
    name: 'ThreadControllerImpl::RunTask',
    cat: 'toplevel',
    ph: 'X',
    pid: 1,
    tid,
    ts,
    dur,
  });

  it('keeps the page main thread tasks, in page time, nested and overlapping ones merged', () => {
    const intervals = busyIntervalsFromTrace(
      {
        traceEvents: [
          mark,
          task(1_010_000, 5_000),
          task(1_012_000, 1_000), // nested in the first
          task(1_020_000, 2_000, 9), // another thread
          task(1_030_000, 4_000),
        ],
      },
      'origin',
      500,
    );
    expect(intervals).toEqual([
      [510, 515],
      [530, 534],
    ]);
  });

  it('names the missing mark instead of guessing the clock', () => {
    expect(() => busyIntervalsFromTrace({ traceEvents: [task(1, 1)] }, 'origin', 0)).toThrow(
      /no user-timing mark named origin/,
    );
    expect(() => busyIntervalsFromTrace({}, 'origin', 0)).toThrow(/no traceEvents/);
  });
});

describe('frame cost over the stream', () => {
  it('merges and clips busy time to a window', () => {
    const merged = mergeIntervals([
      [5, 8],
      [0, 2],
      [1, 3],
    ]);
    expect(merged).toEqual([
      [0, 3],
      [5, 8],
    ]);
    expect(busyMsBetween(merged, 2, 6)).toBe(2);
  });

  it('divides the busy time of a stretch of the stream by the frames that started in it', () => {
    // 100 deltas at 1,000/s; frames every 10 ms; 2 ms busy per frame in the first half, 8 ms in the second.
    const frameStarts = Array.from({ length: 10 }, (_, i) => i * 10);
    const busy = frameStarts.map((start) => [start, start + (start < 50 ? 2 : 8)] as [number, number]);
    const timeline = { ...scheduleOf([[4, 4]], 100, 1_000), frameStarts, busy };
    expect(msPerFrame(timeline, 0, 0.5)).toBe(2);
    expect(msPerFrame(timeline, 0.5, 1)).toBe(8);
    expect(frameCostSeries(timeline, 2)).toEqual([2, 8]);
  });

  it('keeps the busy time of a stretch whose deliveries were held up behind a long task', () => {
    // One 80 ms task from 10 to 90 ms held every delivery back: the stream's second half still costs that task.
    const timeline = {
      ...scheduleOf([[4, 4]], 100, 1_000),
      frameStarts: [0, 90],
      busy: [[10, 90]] as [number, number][],
    };
    expect(msPerFrame(timeline, 0.5, 1)).toBe(40);
  });
});
