/**
 * The conversation trials (issue 18's benchmark): a long settled history, then one more run streaming.
 * `session-view`: `<SessionView>` on a session controller that loaded the history through the listing.
 * `useChat-throttle50`: `useChat` holding the same history as initial messages (the person's message and the
 * answer for each run), `experimental_throttle: 50`, rendered as a plain list of memoised messages.
 */
export type SessionContender = 'session-view' | 'useChat-throttle50';

export const SESSION_CONTENDERS: readonly SessionContender[] = ['session-view', 'useChat-throttle50'];

export interface SessionTrialOptions {
  readonly contender: SessionContender;
  /** Settled runs in the history. */
  readonly runs: number;
  /** The streaming run's answer, delta by delta. */
  readonly deltas: readonly string[];
  /** Events per second. */
  readonly rate: number;
  readonly timeoutMs: number;
}

/** What the page measures (page clock, ms). */
export interface SessionPageResult {
  readonly contender: SessionContender;
  readonly runs: number;
  /** Entries (kit) or messages (useChat) in the view's state once the history is in. */
  readonly items: number;
  /** From `root.render` to the paint of the frame after the first commit. */
  readonly initialRenderMs: number;
  /** Commits until that paint. */
  readonly mountCommits: number;
  /** `document.querySelectorAll('*').length` once the view has mounted and settled, and at the end. */
  readonly domNodesAfterMount: number;
  readonly domNodesAtEnd: number;
  /** From the send to the settled answer. */
  readonly commitsWhileStreaming: number;
  readonly maxCommitsPerFrame: number;
  readonly maxMotionCommitsPerFrame: number;
  readonly framesWhileStreaming: number;
  /** History items handed to the view as new objects while the run streamed (memoised views render again). */
  readonly settledChanged: number;
  /** Mutations inside history items already on screen while the run streamed (kit: settled entries; useChat: earlier messages). */
  readonly settledMutations: number;
  readonly reactRenderMs: number;
  readonly streamMs: number;
  readonly longTasks: number;
  readonly longTaskMs: number;
  /** The last entry shows the whole answer. */
  readonly contentOk: boolean;
}
