/**
 * `kit`: useRun at its defaults (one commit per animation frame for motion). `kit-timer50`: the same with the run
 * client's injectable scheduler set to `createTimerFrameScheduler(50)`, the counterpart of useChat's
 * `experimental_throttle: 50`.
 */
export type Contender = 'kit' | 'kit-timer50' | 'useChat' | 'useChat-throttle50';
/** `burst`: as fast as possible (a 64 KiB network read per task); a number: events per second. */
export type Rate = 'burst' | number;

export interface TrialOptions {
  readonly contender: Contender;
  readonly rate: Rate;
  readonly deltas: readonly string[];
}

export interface TrialResult {
  readonly contender: Contender;
  readonly rate: Rate;
  readonly deltas: number;
  /** React commits of the subtree (Profiler onRender), from the first request to the final text. */
  readonly commits: number;
  /** The most motion commits (text changed, phase or status did not) within one animation frame. */
  readonly maxMotionCommitsPerFrame: number;
  readonly frames: number;
  readonly durationMs: number;
  /** Sum of Profiler actualDuration: time React spent rendering this subtree. */
  readonly reactRenderMs: number;
  /** Long tasks (≥ 50 ms) seen during the trial: PerformanceObserver 'longtask' in Chromium, timer gaps in jsdom. */
  readonly longTasks: number;
  readonly longTaskMs: number;
  /** Whether the final DOM text equals every delta joined. */
  readonly textComplete: boolean;
}
