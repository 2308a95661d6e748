import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyVector, vectorAppend, vectorAt, vectorSet, vectorToArray, type Vector } from './persistent-vector.js';

// Enough appends to grow the trie past one and two levels (32 items in the tail, 1,056 before a second level).
const ops = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), value: fc.integer() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('branch' as const), back: fc.nat() }) },
  ),
  { maxLength: 1_500 },
);

describe('persistent vector', () => {
  it('reads like an array after any appends and replacements, and every older vector keeps its items', () => {
    fc.assert(
      fc.property(ops, (steps) => {
        const versions: { vector: Vector<number>; items: number[] }[] = [{ vector: emptyVector, items: [] }];
        let current = versions[0]!;
        for (const step of steps) {
          if (step.kind === 'branch') {
            // Go on from an older vector: what it makes must not show in the newer ones.
            current = versions[step.back % versions.length]!;
            continue;
          }
          const { vector, items } = current;
          if (step.kind === 'append') {
            current = { vector: vectorAppend(vector, step.value), items: [...items, step.value] };
          } else if (items.length > 0) {
            const at = step.at % items.length;
            const next = items.slice();
            next[at] = step.value;
            current = { vector: vectorSet(vector, at, step.value), items: next };
          }
          versions.push(current);
        }
        for (const { vector, items } of versions) {
          expect(vector.length).toBe(items.length);
          expect(vectorToArray(vector)).toEqual(items);
          items.forEach((item, index) => expect(vectorAt(vector, index)).toBe(item));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('holds tens of thousands of items across three trie levels', () => {
    let vector: Vector<number> = emptyVector;
    for (let i = 0; i < 40_000; i++) vector = vectorAppend(vector, i);
    vector = vectorSet(vector, 33_000, -1);
    expect(vector.length).toBe(40_000);
    expect(vectorAt(vector, 0)).toBe(0);
    expect(vectorAt(vector, 33_000)).toBe(-1);
    expect(vectorAt(vector, 39_999)).toBe(39_999);
    expect(vectorToArray(vector).filter((item, index) => item !== index)).toEqual([-1]);
  });
});
