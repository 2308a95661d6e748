import { describe, expect, it } from 'vitest';
import { createRunClient } from './create-run-client.js';
import { createMotionSchedule, resolveMotionSchedule } from './motion-schedule.js';
import type { MotionScheduleOptions } from './types.js';

/** Offers the schedule a frame every `frameMs` while motion keeps waiting; returns the frames it picked. */
function dueFrames(options: MotionScheduleOptions, frameMs: number, frames: number, costMs = 0): number[] {
  const schedule = createMotionSchedule(options);
  const picked: number[] = [];
  for (let frame = 1; frame <= frames; frame += 1) {
    const now = frame * frameMs;
    if (!schedule.isDue(now)) continue;
    picked.push(frame);
    schedule.recordCost(now, now + costMs);
  }
  return picked;
}

function gaps(picked: readonly number[]): number[] {
  return picked.slice(1).map((frame, i) => frame - picked[i]!);
}

describe('motion schedule', () => {
  it('notifies a steady stream every 50 ms: every 3rd frame at 60 Hz, every 6th at 120 Hz', () => {
    expect(new Set(gaps(dueFrames({}, 1000 / 60, 120)))).toEqual(new Set([3]));
    expect(new Set(gaps(dueFrames({}, 1000 / 120, 240)))).toEqual(new Set([6]));
  });

  it('shows the first motion after a quiet spell on the next frame', () => {
    const schedule = createMotionSchedule();
    expect(schedule.isDue(1000)).toBe(true); // the first frame with motion
    expect(schedule.isDue(1016)).toBe(false);
    // Nothing waited for two seconds; the next delta's frame notifies it at once.
    expect(schedule.isDue(3000)).toBe(true);
  });

  it('notifies on every frame with intervalMs 0', () => {
    expect(gaps(dueFrames({ intervalMs: 0 }, 1000 / 60, 30))).toEqual(Array(29).fill(1));
  });

  it('shortens the gap to keep the latency budget once renders cost more than it leaves', () => {
    // 0.95 * 50 + 2 ms fits in 50 ms; 0.95 * 50 + 5 ms does not, so every 2nd frame.
    expect(new Set(gaps(dueFrames({}, 1000 / 60, 120, 2)))).toEqual(new Set([3]));
    expect(new Set(gaps(dueFrames({}, 1000 / 60, 120, 5)))).toEqual(new Set([2]));
  });

  it('backs off to three times the render cost when the budget cannot be kept, up to maxIntervalMs', () => {
    // 25 ms renders: the subscribers keep a third of the main thread with a 75 ms gap (4 or 5 frames at 16 ms).
    const slow = gaps(dueFrames({}, 16, 200, 25));
    expect(Math.min(...slow) * 16).toBeGreaterThanOrEqual(75 - 8);
    expect(slow.reduce((a, b) => a + b, 0) / slow.length).toBeCloseTo(75 / 16, 0);
    // 80 ms renders would ask for 240 ms; the wait is bounded at 100 ms.
    expect(Math.max(...gaps(dueFrames({}, 16, 200, 80))) * 16).toBeLessThanOrEqual(100 + 8);
  });

  it('keeps the interval whatever the cost with latencyBudgetMs Infinity and costMultiple 0', () => {
    const options = { latencyBudgetMs: Infinity, costMultiple: 0 };
    expect(new Set(gaps(dueFrames(options, 1000 / 60, 120, 30)))).toEqual(new Set([3]));
  });

  it('follows the cost back down when renders get cheap again', () => {
    const schedule = createMotionSchedule();
    const picked: number[] = [];
    for (let frame = 1; frame <= 300; frame += 1) {
      const now = frame * (1000 / 60);
      if (!schedule.isDue(now)) continue;
      picked.push(frame);
      schedule.recordCost(now, now + (frame < 150 ? 40 : 1));
    }
    const late = gaps(picked.filter((frame) => frame > 200));
    expect(new Set(late)).toEqual(new Set([3]));
  });

  it('refuses options that are not numbers >= 0, naming them', () => {
    expect(() => resolveMotionSchedule({ intervalMs: Number.NaN })).toThrow(/motion\.intervalMs .*got NaN/);
    expect(() => resolveMotionSchedule({ costMultiple: -1 })).toThrow(/motion\.costMultiple .*got -1/);
    expect(() => resolveMotionSchedule({ maxIntervalMs: Infinity })).toThrow(/motion\.maxIntervalMs .*finite/);
    expect(() => resolveMotionSchedule({ intervalMs: 200, maxIntervalMs: 100 })).toThrow(
      /motion\.maxIntervalMs \(100\) must be at least motion\.intervalMs \(200\)/,
    );
    expect(() => createRunClient({ baseUrl: 'http://127.0.0.1:9', motion: { latencyBudgetMs: -5 } })).toThrow(
      RangeError,
    );
    expect(resolveMotionSchedule({ latencyBudgetMs: Infinity, intervalMs: 200 })).toEqual({
      intervalMs: 200,
      latencyBudgetMs: Infinity,
      costMultiple: 3,
      maxIntervalMs: 200,
    });
  });
});
