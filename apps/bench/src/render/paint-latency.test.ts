import { describe, expect, it } from 'vitest';
import { paintLatencies } from './paint-latency.js';

describe('paintLatencies', () => {
  const prefixLengths = [0, 5, 10, 15];

  it('times each delivery to the end of the paint after the first commit that shows its text', () => {
    const result = paintLatencies({
      deliveries: [
        [0, 1],
        [4, 2],
        [30, 3],
      ],
      prefixLengths,
      commits: [
        { time: 10, length: 10, settled: false }, // shows deliveries 1 and 2
        { time: 35, length: 15, settled: false },
        { time: 60, length: 15, settled: true },
      ],
      paintEnds: [8, 17, 34, 50, 67],
    });
    expect(result.deltaToPaint).toEqual([17, 13, 20]);
    expect(result.unshown).toBe(0);
    expect(result.lagAfterLast).toBe(37); // settled commit at 60 painted by 67; last delivery at 30
  });

  it('counts a delivery no commit ever showed as unshown instead of making up a latency', () => {
    const result = paintLatencies({
      deliveries: [
        [0, 1],
        [4, 3],
      ],
      prefixLengths,
      commits: [{ time: 10, length: 5, settled: false }],
      paintEnds: [17],
    });
    expect(result.deltaToPaint).toEqual([17]);
    expect(result.unshown).toBe(1);
    expect(result.lagAfterLast).toBeNaN();
  });

  it('does not let a shorter later commit hide text an earlier commit already showed', () => {
    const result = paintLatencies({
      deliveries: [[0, 2]],
      prefixLengths,
      commits: [
        { time: 5, length: 10, settled: false },
        { time: 6, length: 0, settled: false },
      ],
      paintEnds: [16],
    });
    expect(result.deltaToPaint).toEqual([16]);
  });
});
