import { pageClock, timeAt, type StreamTimeline, type TraceEvent } from './frame-cost.js';

/** A Chrome trace event with the fields a breakdown reads (a `devtools.timeline` trace has them all). */
export interface TimelineTraceEvent extends TraceEvent {
  readonly args?: {
    readonly elementCount?: number;
    readonly beginData?: { readonly totalObjects?: number; readonly dirtyObjects?: number };
  };
}

/** Where the main thread's time goes, as the issue 17 trace breakdown groups it. */
export type TraceCategory =
  'script' | 'style' | 'layout' | 'compositing inputs' | 'pre-paint' | 'paint' | 'layerize + commit' | 'gc' | 'other';

export const TRACE_CATEGORIES: readonly TraceCategory[] = [
  'script',
  'style',
  'layout',
  'compositing inputs',
  'pre-paint',
  'paint',
  'layerize + commit',
  'gc',
  'other',
];

/** The categories a detailed trace of a trial records (more than the bench's own, which perturb it less). */
export const BREAKDOWN_TRACE_CATEGORIES = [
  'toplevel',
  'blink',
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
];

const CATEGORY_OF: readonly (readonly [RegExp, TraceCategory])[] = [
  [/GC|Scavenge|MarkCompact|MinorMS/, 'gc'],
  [
    /^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|MessagePort::Accept|AsyncTask Run|SerializedScriptValueFactory)/,
    'script',
  ],
  [/^(UpdateLayoutTree|Document::recalcStyle|Document::updateStyle|Document::rebuildLayoutTree|StyleEngine)/, 'style'],
  [/^(Layout$|LocalFrameView::performLayout|InlineNode::)/, 'layout'],
  [/CompositingInputs/, 'compositing inputs'],
  [/^(PrePaint|Blink\.PrePaint|CullRectUpdate|IntersectionObserverController)/, 'pre-paint'],
  [/^(Paint$|Blink\.Paint|LocalFrameView::RunPaintLifecyclePhase)/, 'paint'],
  [/^(Layerize|Commit$|PaintArtifactCompositor|ProxyMain::BeginMainFrame::commit)/, 'layerize + commit'],
];

/** The category of a main-thread trace event, by its name. */
export function categoryOf(name: string): TraceCategory {
  return CATEGORY_OF.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
}

export interface StretchBreakdown {
  readonly frames: number;
  /** Self time (the event's time less the events nested in it) per frame, by category. */
  readonly msPerFrame: Readonly<Record<TraceCategory, number>>;
  /** Mean elements per style recalculation, and layout objects per layout (total in the tree, and dirty). */
  readonly styleElements: number;
  readonly layoutObjects: number;
  readonly layoutDirtyObjects: number;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * The page main thread's time in a stretch of the stream (fractions of its schedule), per frame and by category,
 * from a trace recorded with {@link BREAKDOWN_TRACE_CATEGORIES}. Each complete (`X`) event of the thread the
 * origin mark is on counts its self time, at its start, so nested events are never counted twice.
 */
export function breakdownOfStretch(
  trace: { readonly traceEvents?: readonly TimelineTraceEvent[] },
  origin: { readonly mark: string; readonly markMs: number },
  timeline: Omit<StreamTimeline, 'busy'>,
  stretch: { readonly from: number; readonly to: number },
): StretchBreakdown {
  const { events, mark, toPage } = pageClock(trace, origin.mark, origin.markMs);
  const start = timeAt(timeline, stretch.from);
  const end = timeAt(timeline, stretch.to);

  const thread = events
    .filter((event) => event.ph === 'X' && event.pid === mark.pid && event.tid === mark.tid)
    .filter((event) => event.name !== undefined && event.ts !== undefined && event.dur !== undefined)
    .sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
  const totals = Object.fromEntries(TRACE_CATEGORIES.map((category) => [category, 0])) as Record<TraceCategory, number>;
  const styleElements: number[] = [];
  const layoutObjects: number[] = [];
  const layoutDirty: number[] = [];
  const open: { readonly end: number; self: number; readonly event: TimelineTraceEvent }[] = [];
  const close = (until: number) => {
    while (open.length > 0 && open.at(-1)!.end <= until) {
      const done = open.pop()!;
      const at = toPage(done.event.ts!);
      if (at >= start && at < end) totals[categoryOf(done.event.name!)] += done.self / 1000;
    }
  };
  for (const event of thread) {
    close(event.ts!);
    const parent = open.at(-1);
    if (parent !== undefined) parent.self -= event.dur!;
    open.push({ end: event.ts! + event.dur!, self: event.dur!, event });
    const at = toPage(event.ts!);
    if (at < start || at >= end) continue;
    if (event.name === 'UpdateLayoutTree' && event.args?.elementCount !== undefined)
      styleElements.push(event.args.elementCount);
    if (event.name === 'Layout' && event.args?.beginData !== undefined) {
      layoutObjects.push(event.args.beginData.totalObjects ?? 0);
      layoutDirty.push(event.args.beginData.dirtyObjects ?? 0);
    }
  }
  close(Number.POSITIVE_INFINITY);

  const frames = Math.max(1, timeline.frameStarts.filter((time) => time >= start && time < end).length);
  return {
    frames,
    msPerFrame: Object.fromEntries(TRACE_CATEGORIES.map((category) => [category, totals[category] / frames])) as Record<
      TraceCategory,
      number
    >,
    styleElements: mean(styleElements),
    layoutObjects: mean(layoutObjects),
    layoutDirtyObjects: mean(layoutDirty),
  };
}
