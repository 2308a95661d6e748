/** One React commit: when it happened (page ms) and how much of the answer it showed. */
export interface Commit {
  readonly time: number;
  readonly length: number;
  readonly settled: boolean;
}

export interface PaintLatencyInput {
  /** [page time, deltas handed over in all], in time order. */
  readonly deliveries: readonly (readonly [number, number])[];
  /** `prefixLengths[n]`: the length of the first n deltas joined. */
  readonly prefixLengths: readonly number[];
  /** In time order. */
  readonly commits: readonly Commit[];
  /** Page times at which a frame's paint was over (a message posted from requestAnimationFrame), in time order. */
  readonly paintEnds: readonly number[];
}

export interface PaintLatencies {
  /** Per delivery whose text was painted: ms from the delivery to the end of the paint that first showed it. */
  readonly deltaToPaint: number[];
  /** Deliveries never shown on screen (a view that lost text): their latency is unknown, not made up. */
  readonly unshown: number;
  /** From the last delivery to the end of the paint of the first settled commit; NaN when none settled. */
  readonly lagAfterLast: number;
}

/** Index of the first element of the ascending `values` that is at least (or, with `strict`, above) `target`. */
function firstAtLeast(values: readonly number[], target: number, strict: boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < target || (strict && values[mid] === target)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * When each delivery reached the screen: the first commit showing at least its text, then the first paint ending
 * after that commit (a commit made inside a frame's callbacks paints in that frame, any other in the next).
 */
export function paintLatencies(input: PaintLatencyInput): PaintLatencies {
  const { deliveries, prefixLengths, commits, paintEnds } = input;
  const paintOf = (commit: Commit) => paintEnds[firstAtLeast(paintEnds, commit.time, true)] ?? Number.NaN;
  // The most text shown so far, per commit: a search over it finds the first commit showing a given length.
  const shownSoFar: number[] = [];
  for (const commit of commits) shownSoFar.push(Math.max(shownSoFar.at(-1) ?? 0, commit.length));
  const deltaToPaint: number[] = [];
  let unshown = 0;
  for (const [time, sent] of deliveries) {
    const commit = commits[firstAtLeast(shownSoFar, prefixLengths[sent]!, false)];
    const paint = commit === undefined ? Number.NaN : paintOf(commit);
    if (Number.isNaN(paint)) unshown += 1;
    else deltaToPaint.push(paint - time);
  }
  const settledCommit = commits.find((commit) => commit.settled);
  const lastDelivery = deliveries.at(-1);
  const lagAfterLast =
    settledCommit === undefined || lastDelivery === undefined ? Number.NaN : paintOf(settledCommit) - lastDelivery[0];
  return { deltaToPaint, unshown, lagAfterLast };
}
