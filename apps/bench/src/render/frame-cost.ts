/** A Chrome trace event (the fields this file reads). */
export interface TraceEvent {
  readonly name?: string;
  readonly cat?: string;
  readonly ph?: string;
  readonly pid?: number;
  readonly tid?: number;
  readonly ts?: number;
  readonly dur?: number;
}

/** The top-level task events of the `toplevel` trace category: every task the thread ran. */
const TASK_EVENTS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/**
 * A trace's events, the page's origin mark in it (on the page's main thread) and the conversion from trace time
 * (µs) to page time (ms, `performance.now()`) that mark gives.
 */
export function pageClock<E extends TraceEvent>(
  trace: { readonly traceEvents?: readonly E[] },
  originMark: string,
  originMarkMs: number,
): { readonly events: readonly E[]; readonly mark: E; readonly toPage: (ts: number) => number } {
  const events = trace.traceEvents;
  if (!Array.isArray(events)) throw new Error('trace has no traceEvents array');
  const mark = events.find((event) => event.name === originMark && event.cat?.includes('blink.user_timing'));
  if (mark?.ts === undefined) throw new Error(`trace has no user-timing mark named ${originMark}`);
  const markTs = mark.ts;
  return { events, mark, toPage: (ts: number) => ts / 1000 - markTs / 1000 + originMarkMs };
}

/**
 * The renderer main thread's busy intervals, in page time (ms, `performance.now()`), from a Chrome trace recorded
 * with the `toplevel` and `blink.user_timing` categories. The page's `performance.mark(originMark)` ties the two
 * clocks together, and names the thread (marks are recorded on the page's main thread). Overlapping and nested
 * tasks are merged, so nothing is counted twice.
 */
export function busyIntervalsFromTrace(
  trace: { readonly traceEvents?: readonly TraceEvent[] },
  originMark: string,
  originMarkMs: number,
): [number, number][] {
  const { events, mark, toPage } = pageClock(trace, originMark, originMarkMs);
  const tasks: [number, number][] = [];
  for (const event of events) {
    if (event.ph !== 'X' || event.pid !== mark.pid || event.tid !== mark.tid) continue;
    if (event.name === undefined || !TASK_EVENTS.has(event.name) || event.ts === undefined) continue;
    tasks.push([toPage(event.ts), toPage(event.ts + (event.dur ?? 0))]);
  }
  return mergeIntervals(tasks);
}

/** Sorted, non-overlapping intervals covering the same time. */
export function mergeIntervals(intervals: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Busy ms within [from, to] of merged intervals. */
export function busyMsBetween(intervals: readonly (readonly [number, number])[], from: number, to: number): number {
  let busy = 0;
  for (const [start, end] of intervals) {
    if (end <= from) continue;
    if (start >= to) break;
    busy += Math.min(end, to) - Math.max(start, from);
  }
  return busy;
}

export interface StreamTimeline {
  /** Page time at which the delivery schedule started (delta 0 was due). */
  readonly streamStart: number;
  /** How long the schedule takes: deltas / rate. */
  readonly streamMs: number;
  readonly frameStarts: readonly number[];
  /** Merged busy intervals of the main thread. */
  readonly busy: readonly (readonly [number, number])[];
}

/**
 * Page time at which `fraction` of the deltas was due. The schedule's clock, not the delivery's: deliveries run on
 * the same main thread and bunch up behind a long task, and a stretch measured by them would shrink to nothing
 * exactly when the view is slowest.
 */
export function timeAt(timeline: Pick<StreamTimeline, 'streamStart' | 'streamMs'>, fraction: number): number {
  return timeline.streamStart + fraction * timeline.streamMs;
}

/** The schedule's start and length from its deliveries at `rate` events per second. */
export function scheduleOf(
  deliveries: readonly (readonly [number, number])[],
  deltas: number,
  rate: number,
): { streamStart: number; streamMs: number } {
  const first = deliveries[0];
  if (first === undefined) throw new Error('the trial delivered nothing');
  // The first delivery hands over what was due by then: its count says how long after the start it ran.
  return { streamStart: first[0] - (first[1] * 1000) / rate, streamMs: (deltas * 1000) / rate };
}

/**
 * Main-thread ms per frame while the stream went from `from` to `to` (fractions of its schedule): busy time in that
 * stretch over the frames that started in it (at least one: a stretch inside one long frame is that frame's cost).
 */
export function msPerFrame(timeline: StreamTimeline, from: number, to: number): number {
  const start = timeAt(timeline, from);
  const end = timeAt(timeline, to);
  const frames = timeline.frameStarts.filter((time) => time >= start && time < end).length;
  return busyMsBetween(timeline.busy, start, end) / Math.max(1, frames);
}

/** Main-thread ms per frame over `buckets` equal stretches of the stream: the chart's line for one trial. */
export function frameCostSeries(timeline: StreamTimeline, buckets: number): number[] {
  return Array.from({ length: buckets }, (_, i) => msPerFrame(timeline, i / buckets, (i + 1) / buckets));
}
