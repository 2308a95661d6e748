import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutMarkerLine } from './marker-line.js';

describe('withoutMarkerLine', () => {
  it.each([
    ['a bullet under a line', 'Pros:\n-', 'Pros:\n'],
    ['a nested bullet in a quote', '> a\n>   - ', '> a\n'],
    ['a number', 'one\n12', 'one\n'],
    ['a number and its dot', 'one\n12.', 'one\n'],
    ['the start of bold in an item', 'Here:\n\n* **', 'Here:\n\n'],
    ['a rule of stars', 'Intro\n***', 'Intro\n'],
    ["a heading's marks", '###', ''],
    ['a line of spaces', `a\n${' '.repeat(50_000)}`, 'a\n'],
  ])('leaves out %s', (_, text, left) => {
    expect(withoutMarkerLine(text)).toBe(left);
  });

  it.each([
    ['a number of four digits', 'In\n1999'],
    ['a year and its dot', 'In\n1999.'],
    ['a bullet and its text', '- a'],
    ['a rule of dashes', 'Text\n\n---'],
    ['bold text', '**Key'],
    ['a line of spaces before text', `a\n${' '.repeat(50_000)}b`],
  ])('keeps %s', (_, text) => {
    expect(withoutMarkerLine(text)).toBe(text);
  });

  it('only ever grows as the text does, so the incremental lexing reads a growing text', () => {
    // Every line of up to four characters of the ones that matter, and each character after it.
    const alphabet = [' ', '\t', '>', '-', '+', '*', '_', '#', '1', '.', ')', 'a', '\n'];
    let lines = [''];
    for (let length = 1; length <= 4; length++) {
      lines = [
        ...lines,
        ...lines.filter((line) => line.length === length - 1).flatMap((line) => alphabet.map((c) => line + c)),
      ];
    }
    const shrinking = lines.flatMap((line) =>
      alphabet
        .map((next) => `x\n${line}${next}`)
        .filter((text) => !withoutMarkerLine(text).startsWith(withoutMarkerLine(text.slice(0, -1)))),
    );
    expect(shrinking).toEqual([]);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 30 }),
        fc.constantFrom(...alphabet),
        (text, next) => withoutMarkerLine(text + next).startsWith(withoutMarkerLine(text)),
      ),
    );
  });
});
