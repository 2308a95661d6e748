import { describe, expect, it } from 'vitest';
import { medianSample, medianSeries, rotated, runRotatedRounds, spread } from './rounds.js';

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

describe('runRotatedRounds', () => {
  it('runs every contender each round in a rotated order, and keeps a failed trial as a failure', async () => {
    const lines: string[] = [];
    const ran: string[] = [];
    const { samples, failures, orders } = await runRotatedRounds(
      ['a', 'b', 'c'],
      3,
      async (contender) => {
        ran.push(contender);
        if (contender === 'b' && ran.length === 2) throw new Error('page crashed');
        return ran.length;
      },
      (line) => lines.push(line),
      (result) => `sample ${result}`,
    );
    expect(orders).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
    ]);
    expect(samples.get('a')).toEqual([1, 6, 8]);
    expect(samples.get('b')).toEqual([4, 9]);
    expect(failures).toEqual([{ round: 0, contender: 'b', error: 'page crashed' }]);
    expect(lines[1]).toBe('round 1/3 b: FAILED page crashed');
  });
});
