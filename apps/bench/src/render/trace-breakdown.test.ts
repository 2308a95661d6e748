import { describe, expect, it } from 'vitest';
import { breakdownOfStretch, categoryOf } from './trace-breakdown.js';

describe('breakdownOfStretch', () => {
  const mark = { name: 'origin', cat: 'blink.user_timing', ph: 'R', pid: 1, tid: 7, ts: 1_000_000 };
  const event = (name: string, ts: number, dur: number, tid = 7, args?: object) => ({
    name,
    cat: 'devtools.timeline',
    ph: 'X',
    pid: 1,
    tid,
    ts,
    dur,
    args,
  });
  // Page time = (ts - 1,000,000) / 1000 + 500; the stream runs from 500 to 600 ms, one frame every 10 ms.
  const timeline = { streamStart: 500, streamMs: 100, frameStarts: [500, 510, 520, 530, 590] };
  const origin = { mark: 'origin', markMs: 500 };

  it('counts each event by its own time, less what is nested in it, per frame of the stretch', () => {
    const trace = {
      traceEvents: [
        mark,
        event('ThreadControllerImpl::RunTask', 1_001_000, 8_000),
        event('FunctionCall', 1_001_000, 5_000),
        event('MinorGC', 1_002_000, 1_000), // inside the function call
        event('UpdateLayoutTree', 1_006_000, 1_000, 7, { elementCount: 12 }),
        event('Layout', 1_007_000, 1_000, 7, { beginData: { totalObjects: 300, dirtyObjects: 4 } }),
        event('FunctionCall', 1_003_000, 50_000, 9), // another thread
        event('Paint', 1_092_000, 2_000), // in the last 10%
      ],
    };
    const first = breakdownOfStretch(trace, origin, timeline, { from: 0, to: 0.4 });
    expect(first.frames).toBe(4);
    expect(first.msPerFrame).toMatchObject({ script: 1, gc: 0.25, style: 0.25, layout: 0.25, other: 0.25, paint: 0 });
    expect([first.styleElements, first.layoutObjects, first.layoutDirtyObjects]).toEqual([12, 300, 4]);
    const last = breakdownOfStretch(trace, origin, timeline, { from: 0.9, to: 1 });
    expect(last.msPerFrame).toMatchObject({ paint: 2, script: 0 });
  });

  it('says which trace it cannot read', () => {
    expect(() => breakdownOfStretch({}, origin, timeline, { from: 0, to: 1 })).toThrow('no traceEvents');
    expect(() => breakdownOfStretch({ traceEvents: [] }, origin, timeline, { from: 0, to: 1 })).toThrow('origin');
  });
});

describe('categoryOf', () => {
  it('sorts the renderer lifecycle into the phases the issue 17 breakdown reports', () => {
    expect(
      [
        'RunMicrotasks',
        'Document::recalcStyle',
        'Blink.CompositingInputs.UpdateTime',
        'PrePaint',
        'Layerize',
        'V8.GC_SCAVENGER',
      ].map(categoryOf),
    ).toEqual(['script', 'style', 'compositing inputs', 'pre-paint', 'layerize + commit', 'gc']);
  });
});
