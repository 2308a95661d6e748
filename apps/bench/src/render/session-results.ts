import { spread, type Spread } from '../rounds.js';
import type { SessionTrialResult } from './render-browser.js';
import type { SessionContender } from './session-trial-types.js';

/** One contender's conversation figures over the rounds: median, min and max of each. */
export interface SessionContenderResult {
  readonly contender: SessionContender;
  readonly rounds: number;
  /** Entries (kit) or messages (useChat) the view held. */
  readonly items: number;
  readonly contentOk: boolean;
  readonly initialRenderMs: Spread;
  readonly domNodesAfterMount: Spread;
  readonly domNodesAtEnd: Spread;
  readonly commitsWhileStreaming: Spread;
  readonly maxCommitsPerFrame: Spread;
  readonly maxMotionCommitsPerFrame: Spread;
  readonly settledChanged: Spread;
  readonly settledMutations: Spread;
  readonly reactRenderMs: Spread;
  readonly longTasks: Spread;
  readonly mainThreadMs: Spread;
  readonly samples: readonly SessionTrialResult[];
}

/** What the conversation part (session-part.ts) writes. */
export interface SessionPartResult {
  readonly environment: 'chromium';
  readonly chromiumVersion: string;
  readonly runs: number;
  readonly answer: { readonly chars: number; readonly deltas: number; readonly rate: number };
  readonly rounds: number;
  readonly orders: readonly (readonly SessionContender[])[];
  readonly failures: readonly {
    readonly round: number;
    readonly contender: SessionContender;
    readonly error: string;
  }[];
  readonly contenders: readonly SessionContenderResult[];
}

export function summariseSession(
  contender: SessionContender,
  runs: readonly SessionTrialResult[],
): SessionContenderResult {
  const figure = (read: (result: SessionTrialResult) => number): Spread => spread(runs.map(read));
  return {
    contender,
    rounds: runs.length,
    items: runs[0]!.items,
    contentOk: runs.every((run) => run.contentOk),
    initialRenderMs: figure((run) => run.initialRenderMs),
    domNodesAfterMount: figure((run) => run.domNodesAfterMount),
    domNodesAtEnd: figure((run) => run.domNodesAtEnd),
    commitsWhileStreaming: figure((run) => run.commitsWhileStreaming),
    maxCommitsPerFrame: figure((run) => run.maxCommitsPerFrame),
    maxMotionCommitsPerFrame: figure((run) => run.maxMotionCommitsPerFrame),
    settledChanged: figure((run) => run.settledChanged),
    settledMutations: figure((run) => run.settledMutations),
    reactRenderMs: figure((run) => run.reactRenderMs),
    longTasks: figure((run) => run.longTasks),
    mainThreadMs: figure((run) => run.mainThreadMs),
    samples: runs,
  };
}
