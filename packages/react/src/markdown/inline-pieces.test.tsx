import { render } from '@testing-library/react';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { markdownHtml } from '../test-support/markdown-stream.test-helper.js';
import { INLINE_PIECE } from './inline-pieces.js';
import { lexMarkdownBlocks } from './markdown-blocks.js';
import { MarkdownText } from './markdown-text.js';
import { renderToken } from './render-tokens.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

/** What marked makes of `text` lexed whole, in one inline pass per block, rendered as the kit renders tokens. */
const wholeLexHtml = (text: string) => renderToStaticMarkup(new Lexer(getDefaults()).lex(text).map(renderToken));

const piecesHtml = (text: string) => markdownHtml(lexMarkdownBlocks(null, text));

/** Lexes `text` as MarkdownText does, recording the length of every text marked's inline rules read at once. */
function inlineLengths(text: string): number[] {
  const inline = vi.spyOn(Lexer.prototype, 'inlineTokens');
  lexMarkdownBlocks(null, text);
  const lengths = inline.mock.calls.map(([source]) => source.length);
  inline.mockRestore();
  return lengths;
}

// Inline constructs without a space inside, so a cut (after a line break or a space) never falls within one.
const word = fc.constantFrom(
  'kestrel',
  'hovers',
  'café',
  '🦅',
  '**bold**',
  '*em*',
  '_under_',
  '`code`',
  '~~gone~~',
  '[link](https://example.com/a_b)',
  '<https://example.com>',
  'www.example.com',
  'me@example.com',
  '\\*not\\*',
  '&amp;',
  'snake_case_name',
);
const gap = fc.constantFrom(' ', ' ', ' ', ' ', '\n', '  \n', '\\\n', '  ');
const longParagraph = fc
  .array(fc.tuple(word, gap), { minLength: 1200, maxLength: 2400 })
  .map((parts) => `Start ${parts.map(([w, g]) => w + g).join('')}end.`);

describe('inline text lexed in pieces', () => {
  it('reads no inline text longer than INLINE_PIECE at once, so odd text costs linear work', () => {
    for (const text of ['a_'.repeat(32_000), '_a'.repeat(32_000), `${'a'.repeat(64_000)}@`, 'x '.repeat(32_000)]) {
      const lengths = inlineLengths(text);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(INLINE_PIECE);
      // Each character is read once at the top level, and again at most once inside an emphasis or link.
      expect(lengths.reduce((sum, length) => sum + length, 0)).toBeLessThanOrEqual(2 * text.length);
    }
  });

  it('renders such text as the text it is, every character kept', () => {
    for (const text of [
      'a_'.repeat(8_000),
      `${'a'.repeat(20_000)}@`,
      `${'a'.repeat(INLINE_PIECE - 1)}🦅${'b'.repeat(9_000)}`,
    ]) {
      const { container } = render(<MarkdownText>{text}</MarkdownText>);
      expect(container.textContent).toBe(text);
    }
  });

  it('renders a long paragraph as one lex would when nothing spans a cut: breaks, escapes, links, emphasis', () => {
    fc.assert(
      fc.property(longParagraph, (text) => {
        expect(text.length).toBeGreaterThan(INLINE_PIECE);
        expect(piecesHtml(text)).toBe(wholeLexHtml(text));
      }),
      { numRuns: 40 },
    );
  });

  it('does not cut after a hard line break, inside an escape or inside a surrogate pair', () => {
    const before = (tail: string) => 'a'.repeat(INLINE_PIECE - tail.length);
    for (const text of [
      // The last line break in reach is a hard break (two spaces, then a backslash): the cut goes to the one before.
      `${'word '.repeat(700)}\nnext ${before('x  \ny\\\n')}x  \ny\\\nz *em* after`,
      // No line break or space in reach: a cut at the limit would split `\*` or the eagle's surrogate pair.
      `${before('\\')}\\*not emphasis*`,
      `${before('\\\\')}\\\\*emphasis*`,
      `${before('x')}🦅${'b'.repeat(INLINE_PIECE)}`,
      `${'word '.repeat(900)}  \n${'c'.repeat(INLINE_PIECE)}`,
      // A space after a hard break is no place to cut either.
      `${'w'.repeat(INLINE_PIECE - 40)}  \n ${'c'.repeat(INLINE_PIECE)}`,
    ]) {
      expect(piecesHtml(text)).toBe(wholeLexHtml(text));
    }
  });

  it('leaves text up to INLINE_PIECE to one lex, emphasis across lines included', () => {
    const text = `*emphasis\nacross lines* ${'word '.repeat((INLINE_PIECE - 40) / 5)}`;
    expect(text.length).toBeLessThanOrEqual(INLINE_PIECE);
    expect(inlineLengths(text)).toContain(text.length);
    expect(piecesHtml(text)).toBe(wholeLexHtml(text));
  });
});
