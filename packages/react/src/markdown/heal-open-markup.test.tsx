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
    ['a marker with nothing after it yet', 'Use **', '<p>Use </p>'],
    ['a marker with nothing after it yet, after a bracket', 'Note (**', '<p>Note (</p>'],
    ['a backslash the text ends in', '**my\\', '<p><strong>my</strong></p>'],
    ['markers in a link target that is not whole yet', 'See [the guide](/docs/_static', '<p>See the guide</p>'],
    ['code before its backtick', 'Use `npm ins', '<p>Use <code>npm ins</code></p>'],
    ['markers inside open code', 'Run `a*b', '<p>Run <code>a*b</code></p>'],
    ['markup marked reads inside open code', 'Edit `__init__.py', '<p>Edit <code>__init__.py</code></p>'],
    ['a closer marked reads inside open code', 'Run `rm -rf __pycache__', '<p>Run <code>rm -rf __pycache__</code></p>'],
    ['a closer half arrived after a quote', 'Click **"Save"*', '<p>Click <strong>&quot;Save&quot;</strong></p>'],
    ['strikethrough', 'a ~~strike', '<p>a <del>strike</del></p>'],
    ['underscores', 'snake_case and _it', '<p>snake_case and <em>it</em></p>'],
    ['a literal asterisk before', '2 * 3 and **bold', '<p>2 * 3 and <strong>bold</strong></p>'],
    [
      'a marker inside that marked would take for one',
      '**Be careful with *--force',
      '<p><strong>Be careful with *--force</strong></p>',
    ],
    ['a glob inside', '- **Note: use *.env', '<ul><li><strong>Note: use *.env</strong></li></ul>'],
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
    [
      'a table cell before the last column',
      '| a | b |\n|---|---|\n| **Inst',
      '<div data-kestrel-table-scroll=""><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><strong>Inst</strong></td><td></td></tr></tbody></table></div>',
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
    ['a table cell its `|` closed', '| a | b |\n|---|---|\n| 1 | **2 |'],
    ['a glob', 'Delete all *.pyc files in the folder and'],
    ['a product', 'Complexity is O(n*m) where n is'],
    ['a product of numbers', 'It costs 5*3 = 15 dollars and'],
    ['an escaped marker', '- **\\*'],
    ['markers that are not prose', '*a '.repeat(20)],
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

  const guide = 'https://example.com/guide';
  const rust = 'https://en.wikipedia.org/wiki/Rust_(programming_language)';
  it.each([
    ['a paragraph', `See [the docs](${guide})`, guide],
    ['a table cell before the last column', `| a | b |\n|---|---|\n| [the docs](${guide})`, guide],
    ['link text that is an address', `See [https://example.org](${guide})`, guide],
    ['a bare address', `See ${guide} and`, guide],
    ['an address in bold', `See **${guide}** now`, guide],
    ['a target with parentheses', `See [Rust](${rust}) now`, rust],
  ])('never links to half a URL: %s', (_, full, target) => {
    const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => href!);
    for (let end = full.indexOf(' '); end <= full.length; end++) {
      const html = streamingHtml(full.slice(0, end));
      // Never a part of the target, nor of the address that is a link's text; no markup of the target shown.
      for (const href of hrefs(html))
        expect(href === target || !(target.startsWith(href) || 'https://example.org'.startsWith(href))).toBe(true);
      expect(html).not.toMatch(/<em>|\]\(/);
    }
    expect(hrefs(streamingHtml(full))).toEqual([target]);
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
    '🚀 launch',
    'https://example.com/a_b',
  );
  const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
  const inline: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: word },
    fc.tuple(fc.constantFrom('**', '*', '_', '__', '~~'), words).map(([marker, text]) => `${marker}${text}${marker}`),
    words.map((text) => `\`${text}\``),
    words.map((text) => `[${text}](https://example.com/${text.length})`),
    fc.tuple(words, words).map(([outer, inner]) => `**${outer} *${inner}* ${outer}**`),
  );
  /** Tables' heads (after a line of a paragraph, with markup, aligned), after which one row is written. */
  const tables = [
    '| A | B |\n| --- | --- |\n| ',
    'Plans:\n| **Plan** | `code` and [a link](https://example.com) |\n|:--|--:|\n| ',
  ];
  const line = fc
    .tuple(fc.constantFrom('', '## ', '- ', '> ', ...tables), fc.array(inline, { minLength: 1, maxLength: 8 }))
    .map(([start, parts]) => start + parts.join(tables.includes(start) ? ' | ' : ' '));

  it('shows, at every point a stream stops, the start of what the final answer shows, and never a marker', () => {
    fc.assert(
      fc.property(streamedPrefixes(line, 30), (prefixes) => {
        const full = prefixes.at(-1)!;
        const final = seen(finalHtml(full));
        const { container, rerender } = render(<MarkdownText streaming>{''}</MarkdownText>);
        for (const prefix of prefixes) {
          rerender(<MarkdownText streaming>{prefix}</MarkdownText>);
          // The streamed render is the render of the prefix from scratch.
          // (jsdom lays nothing out, so a table's box takes a tab stop there after rendering: left out.)
          expect(container.innerHTML.replace(' tabindex="0"', '')).toBe(
            renderToStaticMarkup(<MarkdownText streaming>{prefix}</MarkdownText>),
          );
          // A link's text shows its `[` and `]` until its `(`; nothing else it shows is not in the final answer.
          const shown = seen(container.innerHTML).replace(/[[\]]/g, '');
          expect(final.startsWith(shown)).toBe(true);
        }
      }),
      { numRuns: Number(process.env.HEAL_RUNS ?? 300) },
    );
  }, 60_000);

  it('heals the last piece of a long paragraph in place', () => {
    const long = 'Run `a` then `b` and `c`. '.repeat(75);
    const { container, rerender } = render(<MarkdownText streaming>{`${long}Now`}</MarkdownText>);
    const removed: Node[] = [];
    const observer = new MutationObserver((records) =>
      records.forEach((record) => removed.push(...record.removedNodes)),
    );
    observer.observe(container, { subtree: true, childList: true });
    // Healing starts, then the markup closes: the piece's elements stay where they are.
    rerender(<MarkdownText streaming>{`${long}Now **bo`}</MarkdownText>);
    rerender(<MarkdownText streaming>{`${long}Now **bold**`}</MarkdownText>);
    observer.takeRecords().forEach((record) => removed.push(...record.removedNodes));
    observer.disconnect();
    expect(container.querySelector('p')!.lastElementChild!.outerHTML).toBe('<strong>bold</strong>');
    expect(removed.filter((node) => node.nodeName === 'CODE')).toEqual([]);
  });

  it('takes a literal marker for one only within 300 characters of the end, or at the start of the text', () => {
    const call = 'Call f(*args, x) with ';
    expect(streamingHtml(call)).toBe(`<p>Call f(<em>args, x) with</em></p>`);
    const later = `${call}${'more words here '.repeat(20)}`;
    expect(streamingHtml(later)).toBe(finalHtml(later));
    const disclaimer = `*Disclaimer: ${'these words are in italics, '.repeat(15)}`;
    expect(streamingHtml(disclaimer)).toMatch(/^<p><em>Disclaimer: [^*]*<\/em><\/p>$/);
  });

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
