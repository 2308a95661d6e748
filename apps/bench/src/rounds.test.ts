import { describe, expect, it } from 'vitest';
import { medianSample, medianSeries, rotated, spread } from './rounds.js';

describe('rounds', () => {
  it('rotates the order each round so every contender runs in every position', () => {
    const orders = [0, 1, 2].map((round) => rotated(['a', 'b', 'c'], round));
    expect(orders).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
    ]);
    expect(rotated(['a', 'b'], 5)).toEqual(['b', 'a']);
  });

  it('reports the median with min and max', () => {
    expect(spread([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30 });
    expect(() => spread([])).toThrow(/no values/);
  });

  it('takes the median sample field by field, and a check passes only when it passed every round', () => {
    const sample = medianSample([
      { name: 'kit', ms: 3, ok: true },
      { name: 'kit', ms: 1, ok: false },
      { name: 'kit', ms: 2, ok: true },
    ]);
    expect(sample).toEqual({ name: 'kit', ms: 2, ok: false });
  });

  it('takes the median per position of per-round series', () => {
    expect(
      medianSeries([
        [1, 10],
        [3, 30],
        [2, 20],
      ]),
    ).toEqual([2, 20]);
  });
});
