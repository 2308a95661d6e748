import { describe, expect, it } from 'vitest';
import { changedByKey, commitsPerFrame } from './session-frames.js';

describe('commitsPerFrame', () => {
  it('counts every commit per frame, and motion commits (text moved, status kept) apart', () => {
    const result = commitsPerFrame([
      { frame: 1, length: 0, status: 'sending' },
      { frame: 1, length: 0, status: 'live' },
      { frame: 2, length: 10, status: 'live' },
      { frame: 3, length: 20, status: 'live' },
      { frame: 3, length: 30, status: 'live' },
      { frame: 4, length: 30, status: 'settled' },
    ]);
    expect(result).toEqual({ max: 2, maxMotion: 2 });
  });

  it('gives zeros for no commits, and never counts the first commit or a status change as motion', () => {
    expect(commitsPerFrame([])).toEqual({ max: 0, maxMotion: 0 });
    expect(
      commitsPerFrame([
        { frame: 1, length: 5, status: 'live' },
        { frame: 1, length: 9, status: 'settled' },
      ]),
    ).toEqual({ max: 2, maxMotion: 0 });
  });
});

describe('changedByKey', () => {
  it('counts items kept under the same key as a different object, skipping what it is told to', () => {
    const a = { key: 'a' };
    const b = { key: 'b' };
    const c = { key: 'c' };
    expect(changedByKey([a, b, c], [a, { key: 'b' }, { key: 'c' }, { key: 'd' }], (item) => item.key)).toBe(2);
    expect(
      changedByKey(
        [a, b, c],
        [a, { key: 'b' }, { key: 'c' }],
        (item) => item.key,
        (item) => item.key === 'c',
      ),
    ).toBe(1);
    expect(changedByKey([a], [a], (item) => item.key)).toBe(0);
  });
});
