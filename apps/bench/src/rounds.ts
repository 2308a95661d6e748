import { median } from './harness.js';

/** `items` starting at `round` (mod length): round r of a rotation, so no contender always runs first or last. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const start = ((round % items.length) + items.length) % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

/** Median, min and max of one figure over the rounds. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('spread of no values');
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The median sample field by field: numbers are the median over the samples, anything else must agree or is the first. */
export function medianSample<T extends object>(samples: readonly T[]): T {
  const first = samples[0];
  if (first === undefined) throw new Error('median of no samples');
  const out: Record<string, unknown> = { ...(first as Record<string, unknown>) };
  for (const [key, value] of Object.entries(first)) {
    if (typeof value === 'number') out[key] = median(samples.map((sample) => (sample as Record<string, number>)[key]!));
    else if (typeof value === 'boolean') out[key] = samples.every((sample) => (sample as Record<string, boolean>)[key]);
  }
  return out as T;
}

/** Per position, the median over equal-length series (one per round). */
export function medianSeries(series: readonly (readonly number[])[]): number[] {
  const length = Math.min(...series.map((line) => line.length));
  return Array.from({ length }, (_, i) => median(series.map((line) => line[i]!)));
}

/**
 * How many rounds every browser trial runs: BENCH_BROWSER_ROUNDS, default 5. Three (the least) left the
 * full view's flatness medians moving by about 0.5 from run to run (per-round ratios 0.25 to 3.5 on 2026-12-02: a
 * frame costs 3 to 6 ms, so one long task in the last tenth of a round doubles it).
 */
export function browserRounds(): number {
  const rounds = Number(process.env.BENCH_BROWSER_ROUNDS ?? 5);
  if (!Number.isSafeInteger(rounds) || rounds < 1)
    throw new Error(`BENCH_BROWSER_ROUNDS must be a positive integer (got ${process.env.BENCH_BROWSER_ROUNDS})`);
  return rounds;
}

/** What {@link runRotatedRounds} collected: each contender's samples, the failed trials, and each round's order. */
export interface RotatedRounds<C, R> {
  readonly samples: Map<C, R[]>;
  readonly failures: { round: number; contender: C; error: string }[];
  readonly orders: C[][];
}

/**
 * Runs `trial` for every contender, `rounds` times, in an order rotated each round. A trial that throws is recorded
 * as a failure (and logged by `report`) instead of ending the part, so one bad round does not lose the others.
 */
export async function runRotatedRounds<C, R>(
  contenders: readonly C[],
  rounds: number,
  trial: (contender: C) => Promise<R>,
  report: (line: string) => void,
  describe: (result: R) => string,
): Promise<RotatedRounds<C, R>> {
  const samples = new Map<C, R[]>(contenders.map((name) => [name, []]));
  const failures: { round: number; contender: C; error: string }[] = [];
  const orders: C[][] = [];
  for (let round = 0; round < rounds; round++) {
    const order = rotated(contenders, round);
    orders.push(order);
    for (const contender of order) {
      try {
        const result = await trial(contender);
        samples.get(contender)!.push(result);
        report(`round ${round + 1}/${rounds} ${String(contender)}: ${describe(result)}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ round, contender, error: message });
        report(`round ${round + 1}/${rounds} ${String(contender)}: FAILED ${message}`);
      }
    }
  }
  return { samples, failures, orders };
}
