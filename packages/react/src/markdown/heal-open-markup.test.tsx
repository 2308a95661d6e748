import { render } from '@testing-library/react';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { streamedPrefixes } from '../test-support/streamed-text.test-helper.js';
import { INLINE_PIECE } from './inline-pieces.js';
import { MarkdownText } from './markdown-text.js';
import { Lexer } from './vendor/marked-lexer.js';

/** The HTML inside MarkdownText's element and its one group. */
const inner = (html: string) =>
  html.replace(/^<div[^>]*><div data-kestrel-markdown-group="">/, '').replace(/<\/div><\/div>$/, '');
const streamingHtml = (text: string) => inner(renderToStaticMarkup(<MarkdownText streaming>{text}</MarkdownText>));
const finalHtml = (text: string) => inner(renderToStaticMarkup(<MarkdownText>{text}</MarkdownText>));

/** What a reader sees of `html`: its text, white space collapsed. */
function seen(html: string): string {
  const element = document.createElement('div');
  element.innerHTML = html;
  return element.textContent!.replace(/\s+/g, ' ').trim();
}

describe('markup a streaming answer leaves open at its end', () => {
  it.each([
    ['bold before its closer', 'Use **bold', '<p>Use <strong>bold</strong></p>'],
    ['a closer half arrived', 'Use **bold*', '<p>Use <strong>bold</strong></p>'],
    ['nested emphasis', 'Use **bold and *it', '<p>Use <strong>bold and <em>it</em></strong></p>'],
    ['emphasis around code', '**bold `code` and more', '<p><strong>bold <code>code</code> and more</strong></p>'],
    ['a marker with nothing after it yet', 'Use **', '<p>Use</p>'],
    ['code before its backtick', 'Use `npm ins', '<p>Use <code>npm ins</code></p>'],
    ['markers inside open code', 'Run `a*b', '<p>Run <code>a*b</code></p>'],
    ['strikethrough', 'a ~~strike', '<p>a <del>strike</del></p>'],
    ['underscores', 'snake_case and _it', '<p>snake_case and <em>it</em></p>'],
    ['a literal asterisk before', '2 * 3 and **bold', '<p>2 * 3 and <strong>bold</strong></p>'],
    ['a link before its target is whole', 'See [the docs](https://exa', '<p>See the docs</p>'],
    ['an image before its target is whole', 'See ![a chart](https://exa', '<p>See a chart</p>'],
    ['a heading', '## A **head', '<h2>A <strong>head</strong></h2>'],
    ['a list item', '- one\n- **two', '<ul><li>one</li><li><strong>two</strong></li></ul>'],
    ['a quote', '> quote *it', '<blockquote><p>quote <em>it</em></p></blockquote>'],
    [
      'a table cell',
      '| a | b |\n|---|---|\n| 1 | **2',
      '<div data-kestrel-table-scroll=""><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><strong>2</strong></td></tr></tbody></table></div>',
    ],
  ])('is shown closed: %s', (_, text, html) => {
    expect(streamingHtml(text)).toBe(html);
    // A final answer shows what never closed as written.
    expect(seen(finalHtml(text))).toMatch(/[*_~`[]/);
  });

  it.each([
    ['a lone tilde (about)', 'about ~100 words'],
    ['a paragraph a blank line closed', 'x **bold\n\n'],
    ['text before a link target starts', 'See [the docs]'],
    ['markup already closed', 'Use **bold** and `code`'],
    ['a marker that opens nothing', 'a ** b'],
    ['an asterisk that cannot open, after a letter and before punctuation', 'f(x*(y'],
  ])('is shown as written: %s', (_, text) => {
    expect(streamingHtml(text)).toBe(finalHtml(text));
  });

  it('is shown as written when marked throws on the closed text', () => {
    const original = Lexer.prototype.inlineTokens;
    const inline = vi.spyOn(Lexer.prototype, 'inlineTokens').mockImplementation(function (this: Lexer, source, tokens) {
      if (source === 'Use **bold**') throw new TypeError('marked failed');
      return original.call(this, source, tokens);
    });
    try {
      expect(streamingHtml('Use **bold')).toBe('<p>Use **bold</p>');
      expect(inline).toHaveBeenCalledWith('Use **bold**');
    } finally {
      inline.mockRestore();
    }
  });

  it('never links to half a URL', () => {
    for (let end = 1; end <= 40; end++) {
      const html = streamingHtml('See [the docs](https://example.com/guide)'.slice(0, end));
      expect(html.includes('<a ') ? html : 'no link').toMatch(/no link|href="https:\/\/example\.com\/guide"/);
    }
  });

  /*
   * A generated paragraph, heading, list item or quote of words and closed markup (emphasis, strong, code,
   * strikethrough, links, nested), with literal asterisks and underscores among them.
   */
  const word = fc.constantFrom(
    'alpha',
    'beta',
    'gamma',
    'snake_case',
    '2 * 3',
    'a+b',
    'x.',
    'Done!',
    'about ~5',
    'C++',
    'x_y_z',
  );
  const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
  const inline: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: word },
    fc.tuple(fc.constantFrom('**', '*', '_', '__', '~~'), words).map(([marker, text]) => `${marker}${text}${marker}`),
    words.map((text) => `\`${text}\``),
    words.map((text) => `[${text}](https://example.com/${text.length})`),
    fc.tuple(words, words).map(([outer, inner]) => `**${outer} *${inner}* ${outer}**`),
  );
  const line = fc
    .tuple(fc.constantFrom('', '## ', '- ', '> '), fc.array(inline, { minLength: 1, maxLength: 8 }))
    .map(([start, parts]) => start + parts.join(' '));

  it('shows, at every point a stream stops, the start of what the final answer shows, and never a marker', () => {
    fc.assert(
      fc.property(streamedPrefixes(line, 30), (prefixes) => {
        const full = prefixes.at(-1)!;
        const final = seen(finalHtml(full));
        const { container, rerender } = render(<MarkdownText streaming>{''}</MarkdownText>);
        for (const prefix of prefixes) {
          rerender(<MarkdownText streaming>{prefix}</MarkdownText>);
          // The streamed render is the render of the prefix from scratch.
          expect(container.innerHTML).toBe(renderToStaticMarkup(<MarkdownText streaming>{prefix}</MarkdownText>));
          // A link's text shows its `[` and `]` until its `(`; nothing else it shows is not in the final answer.
          const shown = seen(container.innerHTML).replace(/[[\]]/g, '');
          expect(final.startsWith(shown)).toBe(true);
        }
      }),
      { numRuns: Number(process.env.HEAL_RUNS ?? 300) },
    );
  }, 60_000);

  it('reads only the last piece of a long paragraph again', () => {
    const long = `${'A sentence of plain words here. '.repeat(200)}Now **bold and \`code`;
    const inline = vi.spyOn(Lexer.prototype, 'inlineTokens');
    const html = streamingHtml(long);
    const lengths = inline.mock.calls.map(([source]) => source.length);
    inline.mockRestore();
    expect(html).toContain('<strong>bold and <code>code</code></strong>');
    expect(Math.max(...lengths)).toBeLessThanOrEqual(INLINE_PIECE + 2);
  });
});
