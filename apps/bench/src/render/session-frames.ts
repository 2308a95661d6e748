/** One React commit of a session trial: the animation frame it landed in and what the streaming entry showed. */
export interface SessionCommit {
  readonly frame: number;
  /** Characters the streaming entry (the last one) showed after the commit. */
  readonly length: number;
  /** Its status (kit: the entry's `data-state`; useChat: the chat's status). */
  readonly status: string;
}

/**
 * Commits per animation frame, all of them and motion only. A motion commit shows more (or less) of the streaming
 * text while its status stays the same, as in trial-app.tsx; the first commit is never motion.
 */
export function commitsPerFrame(commits: readonly SessionCommit[]): { max: number; maxMotion: number } {
  const all = new Map<number, number>();
  const motion = new Map<number, number>();
  commits.forEach((commit, i) => {
    all.set(commit.frame, (all.get(commit.frame) ?? 0) + 1);
    const previous = commits[i - 1];
    if (previous !== undefined && commit.length !== previous.length && commit.status === previous.status)
      motion.set(commit.frame, (motion.get(commit.frame) ?? 0) + 1);
  });
  return { max: Math.max(0, ...all.values()), maxMotion: Math.max(0, ...motion.values()) };
}

/**
 * How many of `before`'s items `after` holds as different objects, by key (items only in one list are not counted):
 * the settled entries (kit) or messages (useChat) that changed, so their memoised views render again.
 */
export function changedByKey<T>(
  before: readonly T[],
  after: readonly T[],
  keyOf: (item: T) => string,
  skip: (item: T) => boolean = () => false,
): number {
  const previous = new Map(before.map((item) => [keyOf(item), item]));
  let changed = 0;
  for (const item of after) {
    if (skip(item)) continue;
    const old = previous.get(keyOf(item));
    if (old !== undefined && old !== item) changed += 1;
  }
  return changed;
}
