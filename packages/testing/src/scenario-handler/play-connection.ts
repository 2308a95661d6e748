import type { WireEvent } from '../event-factory.js';
import type { RequestFaults } from './request-faults.js';
import type { MockRun } from './mock-run.js';
import { sleep } from './sleep.js';

/** Where one connection's output goes: an SSE body or the JSON route's collector. */
export interface ConnectionSink {
  event(event: WireEvent, malformed: boolean): void;
  raw(text: string): void;
  /** True while the connection must stay silent (a stall): no keep-alives either. */
  silent: boolean;
  /** Resolves when the reader has caught up (backpressure); also lets a cancel in while a run plays unpaced. */
  ready(): Promise<void>;
}

export interface ConnectionPlan {
  readonly run: MockRun;
  /** Index of the first step this connection plays; it stops at the end of that step's attempt. */
  readonly cursor: number;
  /** `json` ignores connection faults (drops, stalls) that only a stream can show, and stops at run.completed. */
  readonly mode: 'sse' | 'json';
  readonly faults: RequestFaults;
  readonly delayMs: number;
  /** Replaces scenario stall durations when set. */
  readonly stallMs: number | undefined;
  readonly signal: AbortSignal;
}

/** `complete`: the attempt's steps ran out (or, in JSON, run.completed came); `end`/`drop`: a fault; `aborted`: the client left. */
export type ConnectionEnd = 'complete' | 'end' | 'drop' | 'aborted';

async function silence(sink: ConnectionSink, plan: ConnectionPlan, ms: number): Promise<void> {
  sink.silent = true;
  await sleep(ms, plan.signal, plan.run.onChange);
  sink.silent = false;
}

/**
 * Plays one connection over a run: replays steps the run already produced (faults there are spent and
 * skipped), produces the rest with pacing, and applies the request's injected faults by seq.
 */
export async function playConnection(plan: ConnectionPlan, sink: ConnectionSink): Promise<ConnectionEnd> {
  const { run, faults, signal } = plan;
  const segment = run.segmentAt(plan.cursor);
  const fired = new Set<keyof RequestFaults>();
  const fires = (fault: 'dropAt' | 'truncateAt' | 'stallAt', seq: number) => {
    if (faults[fault] !== seq || fired.has(fault)) return false;
    fired.add(fault);
    return true;
  };
  let cursor = plan.cursor;
  let paced = -1;
  while (!signal.aborted) {
    if (cursor >= segment.end) return 'complete';
    const fresh = cursor === run.head;
    const upcoming = run.steps[cursor];
    if (fresh && upcoming?.kind === 'event' && plan.delayMs > 0 && paced !== cursor) {
      paced = cursor;
      // A cancel may replace this step while we wait: read it again afterwards.
      await sleep(plan.delayMs, signal, run.onChange);
      continue;
    }
    const step = fresh ? run.produce() : upcoming;
    cursor += 1;
    if (step === undefined) return 'complete';
    switch (step.kind) {
      case 'event': {
        const { seq } = step.event;
        await sink.ready();
        if (signal.aborted) break;
        sink.event(step.event, faults.malformedAt === seq);
        if (plan.mode === 'json' && step.event.type === 'run.completed') return 'complete';
        if (fires('dropAt', seq)) return 'drop';
        if (fires('truncateAt', seq)) return 'end';
        if (plan.mode === 'sse' && fires('stallAt', seq)) await silence(sink, plan, faults.stallMs ?? Infinity);
        break;
      }
      case 'raw':
        sink.raw(step.text);
        break;
      case 'drop':
        if (fresh && plan.mode === 'sse') return 'drop';
        break;
      case 'end':
        if (fresh) return 'end';
        break;
      case 'stall':
        if (fresh && plan.mode === 'sse') await silence(sink, plan, plan.stallMs ?? step.ms);
        break;
      case 'pause':
        // Only when produced: a resumed connection replays what came before at once, as a server would.
        if (fresh) await sleep(step.ms, signal, run.onChange);
        break;
      default:
        return step satisfies never;
    }
  }
  return 'aborted';
}
