import { performance } from 'node:perf_hooks';
import type { createRoot as CreateRoot } from 'react-dom/client';
import type { TrialOptions, TrialResult } from './trial-types.js';

/*
 * The same trial in jsdom, in Node (run with NODE_ENV=production so React is the production build, and
 * react-dom/profiling so Profiler still reports). jsdom has no long-task API: a 1 ms timer chain stands in, and
 * any gap of 50 ms or more between its ticks counts as a long task.
 */
export interface JsdomTrialResult extends TrialResult {
  /** Event-loop busy time during the trial (performance.eventLoopUtilization().active). */
  readonly mainThreadMs: number;
}

/*
 * Neither jsdom nor react-dom/profiling ship types here (no @types/jsdom; @types/react-dom has no profiling entry):
 * load them by name and type the little this file uses. The profiling build has react-dom/client's API.
 */
interface JsdomModule {
  JSDOM: new (
    html: string,
    options: { pretendToBeVisual: boolean; url: string },
  ) => { window: Window & typeof globalThis };
}
const moduleNames = { jsdom: 'jsdom', profiling: 'react-dom/profiling' };
const { JSDOM } = (await import(moduleNames.jsdom)) as JsdomModule;

const dom = new JSDOM('<!doctype html><html><body></body></html>', {
  pretendToBeVisual: true,
  url: 'http://bench.invalid/',
});
const host = globalThis as Record<string, unknown>;
for (const name of [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'Node',
  'Text',
  'Element',
  'Event',
  'requestAnimationFrame',
  'cancelAnimationFrame',
]) {
  if (name === 'navigator' && host.navigator !== undefined) continue;
  const value = (dom.window as unknown as Record<string, unknown>)[name];
  host[name] =
    typeof value === 'function' && /^[a-z]/.test(name)
      ? (value as (...args: unknown[]) => unknown).bind(dom.window)
      : value;
}

const { createRoot } = (await import(moduleNames.profiling)) as { createRoot: typeof CreateRoot };
const { runTrial } = await import('./trial-app.js');

function watchLongTasks() {
  let count = 0;
  let totalMs = 0;
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout>;
  const tick = () => {
    const now = performance.now();
    if (now - last >= 50) {
      count += 1;
      totalMs += now - last;
    }
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return () => {
    clearTimeout(timer);
    return { count, totalMs };
  };
}

export async function runJsdomTrial(options: TrialOptions): Promise<JsdomTrialResult> {
  const container = dom.window.document.createElement('div');
  dom.window.document.body.append(container);
  const before = performance.eventLoopUtilization();
  const result = await runTrial({ createRoot, container, watchLongTasks }, options);
  const used = performance.eventLoopUtilization(before);
  container.remove();
  return { ...result, mainThreadMs: Math.round(used.active) };
}
