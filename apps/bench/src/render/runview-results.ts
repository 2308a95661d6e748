import type { BenchAnswerKind } from './bench-answers.js';
import { medianSeries, spread, type Spread } from '../rounds.js';
import type { RunViewTrialResult } from './render-browser.js';
import type { RunViewContender } from './runview-trial-types.js';

/** One contender's full-view figures over the rounds: median, min and max of each. */
export interface RunViewContenderResult {
  readonly contender: RunViewContender;
  readonly rounds: number;
  /** Every round showed the whole answer (see `contentDetail`). */
  readonly contentOk: boolean;
  readonly contentDetail: readonly string[];
  readonly firstTenthMsPerFrame: Spread;
  readonly lastTenthMsPerFrame: Spread;
  /** Last 10% / first 10% main-thread ms per frame. */
  readonly growth: Spread;
  readonly longTasks: Spread;
  readonly longTaskMs: Spread;
  readonly lagAfterLastDeltaMs: Spread;
  readonly deltaToPaintP95Ms: Spread;
  readonly deltaToPaintP50Ms: Spread;
  readonly commits: Spread;
  readonly mainThreadMs: Spread;
  readonly scriptMs: Spread;
  readonly frames: Spread;
  readonly durationMs: Spread;
  /** Per stretch of the stream, the median over the rounds of main-thread ms per frame. */
  readonly frameCostSeries: readonly number[];
  readonly samples: readonly RunViewTrialResult[];
}

/** What the full-view part (runview-part.ts) writes. */
export interface RunViewPartResult {
  readonly environment: 'chromium';
  readonly chromiumVersion: string;
  readonly answer: {
    /** What the answer is: the mixed markdown answer, or one long code block, table or list (BENCH_ANSWER). */
    readonly kind: BenchAnswerKind;
    readonly chars: number;
    readonly deltas: number;
    readonly rate: number;
    readonly scale: number;
  };
  readonly rounds: number;
  readonly buckets: number;
  /** The order the contenders ran in, round by round. */
  readonly orders: readonly (readonly RunViewContender[])[];
  readonly failures: readonly {
    readonly round: number;
    readonly contender: RunViewContender;
    readonly error: string;
  }[];
  readonly contenders: readonly RunViewContenderResult[];
}

export function summariseContender(
  contender: RunViewContender,
  runs: readonly RunViewTrialResult[],
): RunViewContenderResult {
  const figure = (read: (result: RunViewTrialResult) => number): Spread => spread(runs.map(read));
  return {
    contender,
    rounds: runs.length,
    contentOk: runs.every((run) => run.contentCheck.ok),
    contentDetail: runs.map((run) => run.contentCheck.detail),
    firstTenthMsPerFrame: figure((run) => run.firstTenthMsPerFrame),
    lastTenthMsPerFrame: figure((run) => run.lastTenthMsPerFrame),
    growth: figure((run) => run.growth),
    longTasks: figure((run) => run.longTasks),
    longTaskMs: figure((run) => run.longTaskMs),
    lagAfterLastDeltaMs: figure((run) => run.lagAfterLastDeltaMs),
    deltaToPaintP95Ms: figure((run) => run.deltaToPaint.p95),
    deltaToPaintP50Ms: figure((run) => run.deltaToPaint.p50),
    commits: figure((run) => run.commits),
    mainThreadMs: figure((run) => run.mainThreadMs),
    scriptMs: figure((run) => run.scriptMs),
    frames: figure((run) => run.frames),
    durationMs: figure((run) => run.durationMs),
    frameCostSeries: medianSeries(runs.map((run) => run.frameCostSeries)),
    samples: runs,
  };
}
