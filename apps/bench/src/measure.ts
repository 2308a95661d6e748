/*
 * Timing and self-checks with no Node import, so a page bundled for Chromium (throughput-page.ts) measures its
 * contenders the same way the Node parts do.
 */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function timeMs(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * Runs every contender once per round, rotating the order each round so that neither always goes first on a
 * machine whose load changes under us. Returns each contender's times, round by round.
 */
export async function interleave<K extends string>(
  rounds: number,
  contenders: Record<K, () => unknown>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      times[name].push(await timeMs(contenders[name]));
    }
  }
  return times;
}

/** The median of per-round ratios a/b: both measured back to back, so load that changes between rounds cancels. */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((value, i) => value / b[i]!));
}

export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`bench self-check failed: ${message}`);
}
