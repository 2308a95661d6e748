import fc from 'fast-check';

/** What a stream of a text shows, in order: prefixes cut at random points, ending with the whole text. */
export const streamedPrefixes = (text: fc.Arbitrary<string>, maxCuts: number): fc.Arbitrary<string[]> =>
  text.chain((full) =>
    fc
      .uniqueArray(fc.nat({ max: full.length }), { maxLength: maxCuts })
      .map((cuts) => [...cuts.sort((a, b) => a - b), full.length].map((end) => full.slice(0, end))),
  );
