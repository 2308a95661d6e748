import type { Contender, Rate } from './trial-types.js';

export const CONTENDERS: readonly Contender[] = ['kit', 'kit-timer50', 'useChat', 'useChat-throttle50'];
export const RATES: readonly Rate[] = ['burst', 2_000];

/** The render trials: the first BENCH_RENDER_DELTAS deltas (default 10,000) of the synthetic stream. */
export function renderPlan() {
  const deltas = Number(process.env.BENCH_RENDER_DELTAS ?? 10_000);
  const trials = RATES.flatMap((rate) => CONTENDERS.map((contender) => ({ contender, rate })));
  return { deltas, trials };
}
