import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { markdownHtml, streamCountingLexedCharacters } from '../test-support/markdown-stream.test-helper.js';
import { streamedPrefixes } from '../test-support/streamed-text.test-helper.js';
import { decodeEntities } from './decode-entities.js';
import { lexMarkdownBlocks, type MarkdownBlocks } from './markdown-blocks.js';
import { MarkdownText } from './markdown-text.js';

// Every text node a cell renders goes through decodeEntities: counting its calls counts the cells rendered.
vi.mock('./decode-entities.js', async (original) => {
  const actual = await original<{ decodeEntities: typeof decodeEntities }>();
  return { decodeEntities: vi.fn(actual.decodeEntities) };
});

const html = markdownHtml;

// Tables as they start in model output (after text, after a definition, aligned, without outer pipes), then lines
// that are rows and lines that end the table (a blank line, a list, a heading, a quote, code, a fence, raw HTML).
// Two things are left out, as marked reads them across a blank line, where a stream has settled the blocks before
// it: an open `<a …>` tag (a bare URL after it is text in a full lex, a link in a stream) and a definition's title
// left open (marked lets it run on over blank lines). Within the table's own block, the tests below cover both.
const head = fc.constantFrom(
  '| a | b |\n|---|---|\n',
  '| a | b | c |\n| :-- | :-: | --: |\n',
  'a | b\n--- | ---\n',
  '[a]: https://a.example\n\n| x | y |\n|---|---|\n',
  'Intro text\n| a | b |\n| - | - |\n',
  '> | q | r |\n> |---|---|\n',
);
const line = fc.constantFrom(
  '| 1 | 2 |',
  '| [a] | `c` |',
  '| **b** | [x](https://c.example) |',
  '| [b][a] | &amp; |',
  '| https://e.example | www.e.example |',
  'x"',
  '| x) |',
  'x',
  '| only |',
  '|||||',
  '| \\| | y |',
  '| a | b | c | d |',
  '  | 3 | 4 |',
  '   text',
  '- z',
  '1. q',
  '1',
  '2) r',
  '# h',
  '#',
  '> q',
  '    code',
  '   ',
  '',
  '```',
  '~~~',
  '[a]: https://a.example',
  '***',
  '---',
  '===',
  '<div>',
);
const table = fc
  .tuple(head, fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\n', '\n\n')), { minLength: 2, maxLength: 24 }))
  .map(([start, rows]) => start + rows.flat().join(''));

/** Every prefix of `text`, as a stream one character at a time shows it. */
const everyPrefix = (text: string) => Array.from({ length: text.length + 1 }, (_, end) => text.slice(0, end));

/** Renders `first` streaming, then `next`: the elements `selector` finds before and after, and the text nodes rendered. */
function renderUpdate(first: string, next: string, selector: string) {
  const { container, rerender } = render(<MarkdownText streaming>{first}</MarkdownText>);
  const before = [...container.querySelectorAll(selector)];
  vi.mocked(decodeEntities).mockClear();
  rerender(<MarkdownText streaming>{next}</MarkdownText>);
  return {
    before,
    after: [...container.querySelectorAll(selector)],
    textNodes: vi.mocked(decodeEntities).mock.calls.length,
  };
}

function expectEachPrefixAsFullParse(prefixes: readonly string[]): void {
  let lexed: MarkdownBlocks | null = null;
  for (const prefix of prefixes) {
    lexed = lexMarkdownBlocks(lexed, prefix);
    const full = lexMarkdownBlocks(null, prefix);
    expect(html(lexed)).toBe(html(full));
    // Where each block starts: marked's raw has a line break for the one white space character after a block, the
    // text what was written, so lengths are compared.
    expect(lexed.blocks.map((block) => block.raw.length)).toEqual(full.blocks.map((block) => block.raw.length));
    expect(lexed.settled).toBe(full.settled);
  }
}

const rows = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) => `| ${from + i} | **item** ${from + i} | [docs](https://e.example/${i}) |\n`,
  ).join('');
const longTable = `| # | item | link |\n|---|---|---|\n${rows(0, 400)}`;

describe('a table streaming in', () => {
  it('renders every prefix a stream reaches exactly as a full parse of that prefix does', () => {
    fc.assert(fc.property(streamedPrefixes(table, 30), expectEachPrefixAsFullParse), { numRuns: 500 });
  });

  it('keeps every row when the stream is cut after the spaces that start the next one', () => {
    // Those spaces are in the table's raw but are no row of it: the row before them is its last.
    const text = '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n  | 5 | 6 |\n   seven';
    expectEachPrefixAsFullParse(everyPrefix(text));
  });

  // Both from a review: what comes before the last row can change how marked reads it.
  it('reads a bare URL after an open <a> tag, in a cell or before the table, as a whole lex does', () => {
    for (const start of [
      '| a | b |\n|---|---|\n| <a href="x"> | 1 |\n',
      'Intro <a href="x">\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    ]) {
      const text = `${start}| 2 | 3 |\n| https://e.example | 4 |`;
      expectEachPrefixAsFullParse(everyPrefix(text));
      expect(html(lexMarkdownBlocks(null, text))).not.toContain('href="https://e.example"');
    }
  });

  it('lets a definition whose title runs on over the table take its lines once the quote closes, as a whole lex does', () => {
    for (const text of [
      '[a]: https://x.example "t\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\nx"',
      '[a]: https://x.example\n"Name | Value\n--|--\n1|2\n3|4\nx"',
    ]) {
      expectEachPrefixAsFullParse(everyPrefix(text));
      expect(html(lexMarkdownBlocks(null, text))).toBe('');
    }
  });

  it('lexes only its last row and what follows at each update, not the whole table', () => {
    const { lexed, charactersLexed } = streamCountingLexedCharacters(longTable, 40);
    // Lexing the whole table at each of the ~600 updates would be about 300 times its length.
    expect(charactersLexed).toBeLessThan(4 * longTable.length);
    expect(html(lexed)).toBe(html(lexMarkdownBlocks(null, longTable)));
    expect(lexed.blocks[0]!.tokens[0]).toMatchObject({ type: 'table', rows: { length: 400 } });
  });

  it('renders only the rows that changed when a row arrives, leaving the others as they were', () => {
    const { before, after, textNodes } = renderUpdate(
      `| # | item | link |\n|---|---|---|\n${rows(0, 300)}| 300 | **it`,
      `| # | item | link |\n|---|---|---|\n${rows(0, 301)}| 301 |`,
      'tr',
    );
    expect(before).toHaveLength(302);
    expect(after).toHaveLength(303);
    expect(after.slice(0, 301)).toEqual(before.slice(0, 301));
    expect(after[301]!.textContent).toBe('300item 300docs');
    // The last row again and the new one (a few text nodes each), not 300 rows of them.
    expect(textNodes).toBeLessThan(20);
  });

  it('ends at a line that starts another block, and settles once a blank line follows', () => {
    let lexed = lexMarkdownBlocks(null, longTable.slice(0, 5_000));
    lexed = lexMarkdownBlocks(lexed, `${longTable}# After the table`);
    expect(lexed.blocks.map((block) => block.tokens[0]!.type)).toEqual(['table', 'heading']);
    expect(html(lexed)).toBe(html(lexMarkdownBlocks(null, `${longTable}# After the table`)));
    lexed = lexMarkdownBlocks(lexed, `${longTable}# After the table\n\nMore`);
    expect(lexed.settled).toBe(3);
  });
});

const listHead = fc.constantFrom(
  '- a\n- b\n- c\n',
  '1. a\n2. b\n3. c\n',
  '- a\n\n- b\n\n- c\n\n',
  'Intro\n- a\n- b\n- c\n',
  '* a\n* b\n* c\n',
  ' - a\n  - b\n - c\n',
  '- [ ] a\n- [x] b\n- c\n',
);
// Items of the same list and of others, nested items, continuation and lazy lines, and lines that end a list.
const listLine = fc.constantFrom(
  '- d',
  '- e **f**',
  '- [ ] task',
  '- [x] done',
  '- [b][a]',
  '* other bullet',
  '+ plus',
  '1. one',
  '2) paren',
  '10. ten',
  '  - nested',
  '    - deeper',
  '   continued',
  '  [x](https://c.example) www.e.example',
  'lazy line',
  '',
  '  ',
  '- ',
  '-',
  '1',
  '1.',
  '---',
  '- - -',
  '# h',
  '> q',
  '```',
  '  ```',
  '    code',
  '[a]: https://a.example',
  '| a | b |',
  '<div>',
);
const list = fc
  .tuple(
    listHead,
    fc.array(fc.tuple(listLine, fc.constantFrom('\n', '\n', '\n', '\n\n')), { minLength: 1, maxLength: 24 }),
  )
  .map(([start, lines]) => start + lines.flat().join(''));

const items = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) => `- **item** ${from + i}: see [docs](https://e.example/${i}) and \`code\`\n`,
  ).join('');

describe('a list streaming in', () => {
  it('renders every prefix a stream reaches exactly as a full parse of that prefix does', () => {
    fc.assert(fc.property(streamedPrefixes(list, 30), expectEachPrefixAsFullParse), { numRuns: 500 });
  });

  it('lexes only its last two items and what follows at each update, tight or loose', () => {
    for (const text of [items(0, 400), items(0, 150).replaceAll('\n', '\n\n')]) {
      const { lexed, charactersLexed } = streamCountingLexedCharacters(text, 40);
      // Lexing the whole list at each update would be hundreds of times its length.
      expect(charactersLexed).toBeLessThan(6 * text.length);
      expect(html(lexed)).toBe(html(lexMarkdownBlocks(null, text)));
    }
  });

  it('renders only the items that changed when an item arrives', () => {
    const { before, after, textNodes } = renderUpdate(`${items(0, 300)}- **it`, `${items(0, 301)}- **item** 301`, 'li');
    expect(before).toHaveLength(301);
    expect(after).toHaveLength(302);
    expect(after.slice(0, 299)).toEqual(before.slice(0, 299));
    expect(after[300]!.textContent).toBe('item 300: see docs and code');
    // The last two items again and the new one (a few text nodes each), not 300 items of them.
    expect(textNodes).toBeLessThan(30);
  });

  // From a second review: a definition in an item defines its label for the whole text, before the list too.
  it('links a label once an item defines it, and follows the definition as it changes, as a whole lex does', () => {
    for (const text of [
      '- [x]\n- b\n- c\n- [x]: https://e.example/more b',
      '[x]\n\n- a\n- b\n- c\n- [x]: https://e.example',
      'As [1] and [4] show.\n\nSources:\n\n- [1]: https://a.example/one\n- [2]: https://b.example\n- [4]: https://d.example/four\n',
    ])
      expectEachPrefixAsFullParse(everyPrefix(text));
  });

  it('lexes the whole tail of text with carriage returns, as marked reads them as line breaks, shifting offsets', () => {
    for (const text of ['- a\r\n- b\r\n- x -\n- c\n- d\n- e', '| a |\r\n|---|\r\n| 1 |\n|x| 2 |\n| 3 |'])
      expectEachPrefixAsFullParse(everyPrefix(text));
  });

  it('reads what comes before its end as a whole lex does: an open <a> tag, a definition whose title runs on', () => {
    for (const text of [
      '- <a href="x">\n- b\n- c\n- https://e.example',
      'Intro <a href="x">\n- a\n- b\n- c\n- https://e.example',
      '[a]: https://x.example "t\n- a\n- b\n- c\nx"',
    ]) {
      expectEachPrefixAsFullParse(everyPrefix(text));
    }
  });
});
