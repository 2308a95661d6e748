import { describe, expect, it } from 'vitest';
import {
  createCodeAnswer,
  createListAnswer,
  createMarkdownAnswer,
  createTableAnswer,
  splitIntoDeltas,
} from './markdown-answer.js';

describe('createMarkdownAnswer', () => {
  const text = createMarkdownAnswer({ length: 200_000 });

  it('writes at least the asked length, ending with a whole block', () => {
    expect(text.length).toBeGreaterThanOrEqual(200_000);
    expect(text.length).toBeLessThan(202_000);
    expect(text.endsWith('\n')).toBe(true);
    // Every fence opened is closed: the finished answer has no code block running to the end.
    expect(text.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
  });

  it('holds the markdown a model writes: headings, loose lists, fenced code, tables, inline and reference links', () => {
    expect(text).toMatch(/^# Part 1$/m);
    expect(text).toMatch(/^## \d+\. /m);
    expect(text).toMatch(/^1\. .+\n\n {3}\S/m); // a loose list: items separated by blank lines
    expect(text).toMatch(/^- .+\n- /m);
    expect(text).toMatch(/^```ts\n[\s\S]+?\n```$/m);
    expect(text).toMatch(/^\| item \| amount \| share \|\n\| --- \| ---: \| ---: \|$/m);
    expect(text).toMatch(/\[the \S+ guide\]\(https:\/\/example\.com\/docs\/\d+\)/);
    expect(text).toMatch(/\]\[ref-\d+\]/);
    expect(text).toMatch(/^\[ref-\d+\]: https:\/\/example\.com\/reference\/\d+$/m);
    expect(text).toMatch(/^> /m);
  });

  it('gives the same text for the same seed and another for another seed', () => {
    expect(createMarkdownAnswer({ length: 5_000, seed: 3 })).toBe(createMarkdownAnswer({ length: 5_000, seed: 3 }));
    expect(createMarkdownAnswer({ length: 5_000, seed: 4 })).not.toBe(createMarkdownAnswer({ length: 5_000, seed: 3 }));
  });

  it('refuses a length that is not a positive integer, naming it', () => {
    expect(() => createMarkdownAnswer({ length: 0 })).toThrow(/length must be a positive integer \(got 0\)/);
    expect(() => createMarkdownAnswer({ length: Number.NaN })).toThrow(RangeError);
  });
});

describe('createCodeAnswer', () => {
  it('writes one fenced code block of at least the asked length, blank lines inside, closed at the end', () => {
    const text = createCodeAnswer({ length: 20_000 });
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    expect(text.length).toBeLessThan(20_200);
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('```'))).toEqual(['```ts', '```']);
    expect(lines[0]).toBe('```ts');
    expect(text.endsWith('\n```\n')).toBe(true);
    expect(lines.slice(1, -2)).toContain('');
    expect(createCodeAnswer({ length: 2_000, seed: 3 })).toBe(createCodeAnswer({ length: 2_000, seed: 3 }));
    expect(createCodeAnswer({ length: 2_000, seed: 4 })).not.toBe(createCodeAnswer({ length: 2_000, seed: 3 }));
    expect(() => createCodeAnswer({ length: -1 })).toThrow(/length must be a positive integer \(got -1\)/);
  });
});

describe('createTableAnswer', () => {
  it('writes one GFM table of at least the asked length: a header, a delimiter row, then rows with inline markdown', () => {
    const text = createTableAnswer({ length: 20_000 });
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    expect(text.length).toBeLessThan(20_200);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['| # | item | amount | note |', '| ---: | --- | ---: | --- |']);
    expect(lines.at(-1)).toBe('');
    // No blank line until the end: the table never settles while it streams.
    expect(lines.slice(2, -1).every((line) => /^\| \d+ \| \*\*\S+\*\* \S+ \| \d+ \| .+ \|$/.test(line))).toBe(true);
    expect(text).toMatch(/\[the \S+ guide\]\(https:\/\/example\.com\/docs\/\d+\)/);
    expect(text).toMatch(/`\S+\(\)`/);
    expect(createTableAnswer({ length: 2_000, seed: 3 })).toBe(createTableAnswer({ length: 2_000, seed: 3 }));
    expect(createTableAnswer({ length: 2_000, seed: 4 })).not.toBe(createTableAnswer({ length: 2_000, seed: 3 }));
    expect(() => createTableAnswer({ length: 1.5 })).toThrow(/length must be a positive integer \(got 1.5\)/);
  });
});

describe('createListAnswer', () => {
  it('writes one tight list of at least the asked length, every line an item with inline markdown', () => {
    const text = createListAnswer({ length: 20_000 });
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    expect(text.length).toBeLessThan(20_300);
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).every((line) => /^- \*\*\S+ \S+\*\*: .+, with .+\.$/.test(line))).toBe(true);
    expect(createListAnswer({ length: 2_000, seed: 3 })).toBe(createListAnswer({ length: 2_000, seed: 3 }));
    expect(createListAnswer({ length: 2_000, seed: 4 })).not.toBe(createListAnswer({ length: 2_000, seed: 3 }));
    expect(() => createListAnswer({ length: 0 })).toThrow(/length must be a positive integer \(got 0\)/);
  });
});

describe('splitIntoDeltas', () => {
  it('cuts the text into exactly the asked number of non-empty deltas that join back to it', () => {
    const text = createMarkdownAnswer({ length: 200_000 });
    const deltas = splitIntoDeltas(text, 20_000);
    expect(deltas).toHaveLength(20_000);
    expect(deltas.join('')).toBe(text);
    expect(deltas.every((delta) => delta.length > 0)).toBe(true);
  });

  it('never separates the two halves of a surrogate pair', () => {
    const text = '🦅a🦅b🦅c🦅d🦅e🦅f';
    for (let count = 1; count <= text.length / 2; count++) {
      const deltas = splitIntoDeltas(text, count);
      expect(deltas.join('')).toBe(text);
      // No delta starts with a low surrogate or ends with a high one.
      for (const delta of deltas) expect(delta).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/u);
    }
  });

  it('refuses a count outside 1 to the text length, naming it', () => {
    expect(() => splitIntoDeltas('abc', 0)).toThrow(/count must be an integer from 1 to the text length 3 \(got 0\)/);
    expect(() => splitIntoDeltas('abc', 4)).toThrow(RangeError);
  });
});
