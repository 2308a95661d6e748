import { render } from '@testing-library/react';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { markdownHtml } from '../test-support/markdown-stream.test-helper.js';
import { streamedPrefixes } from '../test-support/streamed-text.test-helper.js';
import { decodeEntities } from './decode-entities.js';
import { INLINE_PIECE } from './inline-pieces.js';
import { lexMarkdownBlocks, type MarkdownBlocks } from './markdown-blocks.js';
import { MarkdownText } from './markdown-text.js';
import { renderToken } from './render-tokens.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

// Every text node the renderer makes goes through decodeEntities: counting its calls counts the text rendered.
vi.mock('./decode-entities.js', async (original) => {
  const actual = await original<{ decodeEntities: typeof decodeEntities }>();
  return { decodeEntities: vi.fn(actual.decodeEntities) };
});

/** What marked makes of `text` lexed whole, in one inline pass per block, rendered as the kit renders tokens. */
const wholeLexHtml = (text: string) => renderToStaticMarkup(new Lexer(getDefaults()).lex(text).map(renderToken));

const piecesHtml = (text: string) => markdownHtml(lexMarkdownBlocks(null, text));

/** Lexes each text in turn as MarkdownText does, recording the length of every text marked's inline rules read. */
function inlineLengths(...texts: string[]): number[] {
  const inline = vi.spyOn(Lexer.prototype, 'inlineTokens');
  texts.reduce<MarkdownBlocks | null>((previous, text) => lexMarkdownBlocks(previous, text), null);
  const lengths = inline.mock.calls.map(([source]) => source.length);
  inline.mockRestore();
  return lengths;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Generated texts longer than `longerThan`, each rendering in pieces as a whole lex renders it. */
function expectAsWholeLex(texts: fc.Arbitrary<string>, longerThan: number, numRuns: number): void {
  fc.assert(
    fc.property(texts, (text) => {
      expect(text.length).toBeGreaterThan(longerThan);
      expect(piecesHtml(text)).toBe(wholeLexHtml(text));
    }),
    { numRuns },
  );
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

// Sentences as a model writes them: constructs with spaces inside, a sentence's end a capital after `. `.
const phrase = fc.constantFrom(
  'the kestrel hovers',
  '**two words**',
  '*an aside, with a comma*',
  '`npm run build`',
  '[the guide to streams](https://example.com/docs/streams)',
  '~~an old plan~~',
  'e.g. this one',
  'café and naïve',
  'about 3.5 km',
  'snake_case names',
);
const sentence = fc
  .array(phrase, { minLength: 2, maxLength: 6 })
  .chain((words) => fc.constantFrom('. ', '! ', '? ', '.\n', '.  \n').map((end) => `So ${words.join(' ')}${end}`));
const prose = fc
  .array(sentence, { minLength: 40, maxLength: 90 })
  .map((sentences) => sentences.join(''))
  // As for chineseProse below: the shortest texts fast-check leans towards are under two pieces.
  .filter((text) => text.length > 2 * INLINE_PIECE);

// Chinese sentences, no white space: bold, code and links inside them, each ending in a full stop.
const chinesePhrase = fc.constantFrom(
  '红隼',
  '在田野上',
  '**盘旋着**',
  '`代码`',
  '[指南](https://example.com/z)',
  '字',
  '文本',
);
const chineseProse = fc
  .array(
    fc
      .tuple(fc.array(chinesePhrase, { minLength: 2, maxLength: 12 }), fc.constantFrom('。', '！', '？'))
      .map(([words, stop]) => words.join('') + stop),
    { minLength: 200, maxLength: 400 },
  )
  .map((sentences) => sentences.join(''))
  // fast-check leans towards the shortest values it can make (200 sentences of two `字`), so keep only texts long
  // enough for the property, which asks for over two pieces (a run failed without this, 2026-12-04).
  .filter((text) => text.length > 2 * INLINE_PIECE);

describe('inline text lexed in pieces', () => {
  it('reads no inline text longer than INLINE_PIECE at once, so odd text costs linear work', () => {
    for (const text of ['a_'.repeat(32_000), '_a'.repeat(32_000), `${'a'.repeat(64_000)}@`, 'x_*a '.repeat(12_000)]) {
      const lengths = inlineLengths(text);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(INLINE_PIECE);
      // Each character is read once at the top level, and again at most once inside an emphasis or link.
      expect(sum(lengths)).toBeLessThanOrEqual(2 * text.length);
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
    expectAsWholeLex(longParagraph, INLINE_PIECE, 40);
  });

  it('keeps hard breaks, escapes, surrogate pairs and words whole where it cuts', () => {
    const piece = INLINE_PIECE;
    for (const text of [
      // Hard breaks next to the cut: two spaces or a backslash, then a line feed, with other white space after it.
      `${'word '.repeat(piece / 5 - 2)}\nnext ${'a'.repeat(piece - 12)}x  \ny\\\nz *em* after`,
      `${'a '.repeat(piece / 2 - 8)}b  \n\u00a0\nc${'d'.repeat(2 * piece)}`,
      `${'a '.repeat(piece / 2 - 8)}b\\\n\u3000\nc${'d'.repeat(2 * piece)}`,
      `${'w'.repeat(piece - 96)}  \n\t ${'c'.repeat(2 * piece)}`,
      `${'x'.repeat(piece - 4)}  \n\t${'y'.repeat(2 * piece)}`,
      `${'x'.repeat(piece - 3)}\\\n\u3000${'y'.repeat(2 * piece)}`,
      `${'x'.repeat(piece - 4)}  \n🦅${'b'.repeat(2 * piece)}`,
      `${'word '.repeat(piece / 5 + 20)}  \n${'c'.repeat(piece)}`,
      `${'w'.repeat(piece - 40)}  \n ${'c'.repeat(piece)}`,
      // No white space in reach: a cut at the limit would split `\*`, a pair of backslashes or the eagle's surrogates.
      `${'-'.repeat(piece - 1)}\\*not emphasis*`,
      `${'-'.repeat(piece - 2)}\\\\*emphasis*`,
      `a${'\\'.repeat(4 * piece + 105)}*x*`,
      `${'-'.repeat(piece - 1)}🦅${'b'.repeat(piece)}`,
      // Nor beside an underscore, asterisk, tilde or backtick: at a piece's start marked sees no character before it.
      `b${'a_'.repeat(piece + 80)}`,
      `${'-'.repeat(piece - 1)}a_${'-'.repeat(30)}_${'-'.repeat(101)}`,
      `${'-'.repeat(piece - 1)}a*${'-'.repeat(30)}*${'-'.repeat(101)}`,
      `${'-'.repeat(piece - 1)}a~${'-'.repeat(30)}~${'-'.repeat(101)}`,
      `${'a'.repeat(piece)}_b_`,
      `_${'a'.repeat(piece - 2)}_${'b'.repeat(100)}`,
      `${'文'.repeat(piece)}*强调*${'字'.repeat(piece)}`,
    ]) {
      expect(piecesHtml(text)).toBe(wholeLexHtml(text));
    }
  });

  it('cuts ordinary prose at ends of sentences and lines, so bold, links and code spans with spaces stay whole', () => {
    expectAsWholeLex(prose, 2 * INLINE_PIECE, 60);
  });

  it('cuts Chinese prose after a full stop, so bold within a sentence stays whole', () => {
    expectAsWholeLex(chineseProse, 2 * INLINE_PIECE, 60);
  });

  it('leaves text up to INLINE_PIECE to one lex, emphasis across lines included', () => {
    const text = `*emphasis\nacross lines* ${'word '.repeat((INLINE_PIECE - 40) / 5)}`;
    expect(text.length).toBeLessThanOrEqual(INLINE_PIECE);
    expect(inlineLengths(text)).toContain(text.length);
    expect(piecesHtml(text)).toBe(wholeLexHtml(text));
  });
});

// Long paragraphs with what carries across a cut or depends on more than the piece: reference links and their
// definition arriving later, raw `<a>` and `<pre>` tags left open, entities, hard breaks, code spans. The tags follow
// a letter, so none starts a line (and an HTML block, which streams with differences of its own).
const streamedWord = fc.constantFrom(
  'kestrel',
  '**bold**',
  '_under_',
  'a_',
  'x_*a',
  '`code`',
  '&amp;',
  '&#38;',
  '[ref]',
  '[link](https://example.com/a)',
  'x<a href="https://example.com">',
  'x</a>',
  'x<pre>',
  'x</pre>',
  'www.example.com',
  '文字',
  '🦅',
);
/** A paragraph of those words; with `links`, reference links and a definition after it, which pieces kept must match. */
const streamedParagraph = (links: boolean) =>
  fc
    .tuple(
      fc.array(
        fc.tuple(
          links ? streamedWord : streamedWord.filter((word) => !word.includes('[')),
          fc.constantFrom(' ', ' ', '', '\n', '. ', '. \n', '  \n'),
        ),
        { minLength: 300, maxLength: 900 },
      ),
      fc.boolean(),
    )
    .map(([parts, defined]) => {
      const paragraph = parts.map(([word, gap]) => word + gap).join('');
      // `</a>` first: an `<a>` left open in a settled block is known to read otherwise in a stream.
      return links && defined ? `${paragraph} </a>\n\n[ref]: https://example.com/ref` : paragraph;
    });

describe('a long paragraph streaming in', () => {
  it.each([
    ['without links, its pieces kept from one lex to the next', false],
    ['with reference links, a definition streaming in after it', true],
  ])('renders every prefix as a full lex of it does: %s', (_, links) => {
    fc.assert(
      fc.property(streamedPrefixes(streamedParagraph(links), 25), (prefixes) => {
        let lexed: MarkdownBlocks | null = null;
        for (const prefix of prefixes) {
          lexed = lexMarkdownBlocks(lexed, prefix);
          expect(markdownHtml(lexed)).toBe(markdownHtml(lexMarkdownBlocks(null, prefix)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('reads a kept piece again when the state it starts in differs: inside an open <a>, no address is linked', () => {
    const line = `\n${'plain words and www.example.com here '.repeat(16)}`;
    const body = `${line}${line}${line}\nend`;
    const before = lexMarkdownBlocks(null, `intro words${body}`);
    const after = lexMarkdownBlocks(before, `x<a href="https://example.com/a"> intro${body}`);
    expect(markdownHtml(after)).toBe(
      markdownHtml(lexMarkdownBlocks(null, `x<a href="https://example.com/a"> intro${body}`)),
    );
    expect(markdownHtml(after)).not.toContain('href="http://www.example.com"');
  });

  it('lexes only the last piece or two of it again at each update', () => {
    for (const text of ['*文。'.repeat(12_000), 'x_*a '.repeat(8_000), 'The kestrel hovers. '.repeat(2_000)]) {
      const step = Math.ceil(text.length / 200);
      const prefixes = Array.from({ length: 200 }, (_, index) => text.slice(0, (index + 1) * step));
      // Lexed whole at every update, this would read about 100 times the text.
      expect(sum(inlineLengths(...prefixes))).toBeLessThan(text.length + 200 * 3 * INLINE_PIECE);
    }
  });

  it('renders only its last piece or two again at each update, not every token of the paragraph', () => {
    // Two text nodes every 24 characters: about 85 a piece, about 1,600 in the whole paragraph.
    const text = 'The **kestrel** hovers. '.repeat(800);
    const { container, rerender } = render(<MarkdownText streaming>{text}</MarkdownText>);
    vi.mocked(decodeEntities).mockClear();
    rerender(<MarkdownText streaming>{`${text}It **dives**`}</MarkdownText>);
    expect(vi.mocked(decodeEntities).mock.calls.length).toBeLessThan(((3 * INLINE_PIECE) / 24) * 2);
    expect(container.textContent).toBe(`${text.replaceAll('**', '')}It dives`);
    expect(container.querySelectorAll('p')).toHaveLength(1);
  });

  it('reads as deep in nested quotes as a short paragraph does: past 64 levels, markup is shown as text', () => {
    const start = `${'> '.repeat(63)}**a [b](https://e.example) c** `;
    for (const words of [150, 250]) {
      const { container, unmount } = render(<MarkdownText streaming>{start + 'word '.repeat(words)}</MarkdownText>);
      expect(container.querySelector('strong')?.textContent).toBe('a [b](https://e.example) c');
      expect(container.querySelector('a')).toBeNull();
      unmount();
    }
  });

  it('is not lexed again for a definition streaming in when its links are inline ones', () => {
    const inline = 'See [the docs](https://example.com/docs/v1) for more. '.repeat(50);
    const reference = `${inline}And [the notes][1] too.`;
    const blocks = lexMarkdownBlocks(null, `${inline}\n\n${reference}\n\n[1]: https://example.com/notes`).blocks;
    expect(inline.length).toBeGreaterThan(2 * INLINE_PIECE);
    expect(
      blocks.filter((block) => block.tokens[0]!.type === 'paragraph').map((block) => block.usesReferences),
    ).toEqual([false, true]);
  });

  it('keeps the pieces of its last lex only', () => {
    const text = 'The kestrel hovers. '.repeat(2_000);
    let lexed: MarkdownBlocks | null = null;
    for (let end = 1_000; end <= text.length; end += 1_000) lexed = lexMarkdownBlocks(lexed, text.slice(0, end));
    expect(lexed!.pieces.size).toBeLessThanOrEqual(text.length / (INLINE_PIECE / 2));
  });
});
