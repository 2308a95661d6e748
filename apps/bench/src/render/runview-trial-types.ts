/**
 * The full-view trials (issue 17 item 1): one long markdown answer, streamed at a fixed rate, rendered as an app
 * renders it. `runview-plain`: `<RunView>` at its defaults. `runview-markdown`: `<RunView renderText={renderMarkdown}>`
 * (`@kestrel/react/markdown`). `streamdown`: streamdown's `<Streamdown>` on the same `useRun` state, so only the
 * renderer differs. `useChat-throttle50`: `useChat` with `experimental_throttle: 50`, its text in one pre-wrap div.
 */
export type RunViewContender = 'runview-plain' | 'runview-markdown' | 'streamdown' | 'useChat-throttle50';

export const RUNVIEW_CONTENDERS: readonly RunViewContender[] = [
  'runview-plain',
  'runview-markdown',
  'streamdown',
  'useChat-throttle50',
];

export interface RunViewTrialOptions {
  readonly contender: RunViewContender;
  readonly deltas: readonly string[];
  /** Events per second. */
  readonly rate: number;
  /** The name of the `performance.mark` the driver finds in the trace to align its clock with the page's. */
  readonly originMark: string;
  /** Bound on the whole trial; past it the page gives up with an error naming the contender. */
  readonly timeoutMs: number;
}

/** What the page measures itself (page clock: `performance.now()`, ms). */
export interface RunViewPageResult {
  readonly contender: RunViewContender;
  readonly deltas: number;
  /** `performance.mark(originMark).startTime`: page time of the mark the trace also holds. */
  readonly originMarkMs: number;
  /** React commits of the whole view (Profiler onRender), from mount to the settled text. */
  readonly commits: number;
  /** Sum of Profiler actualDuration. */
  readonly reactRenderMs: number;
  /** Start times of every animation frame (requestAnimationFrame) during the trial. */
  readonly frameStarts: readonly number[];
  /** [page time, deltas handed over in all] after each delivery. */
  readonly deliveries: readonly (readonly [number, number])[];
  /** Per delivery: from handing the bytes over to the paint of the first commit that shows them (ms). */
  readonly deltaToPaintMs: readonly number[];
  /** From the last delivery to the paint of the settled view (ms). */
  readonly lagAfterLastDeltaMs: number;
  readonly longTasks: number;
  readonly longTaskMs: number;
  readonly durationMs: number;
  /** The view shows the whole answer: its text (plain) or as many headings and code blocks as the source has (markdown). */
  readonly contentCheck: { readonly ok: boolean; readonly detail: string };
}
