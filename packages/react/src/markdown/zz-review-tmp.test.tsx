import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamedPrefixes } from '../test-support/streamed-text.test-helper.js';
import { MarkdownText } from './markdown-text.js';

const word = fc.constantFrom(
  'kestrel', 'hovers', '**bold**', '**two words**', '_under_', '*em*', 'a_', 'x_*a', '`code`', '`two code`',
  '&amp;', '&#38;', '&copy;', '[ref]', '[text][ref]', '[Ref][]', '[link](https://example.com/a)',
  'x<a href="https://example.com">', 'x</a>', 'x<pre>', 'x</pre>', 'www.example.com', 'me@example.com',
  '文字', '红隼在田野上。', '🦅', '~~gone~~', '\\*esc\\*', '<https://example.com/x>', '![img](https://e.x/i.png)',
);
const gap = fc.constantFrom(' ', ' ', ' ', '', '\n', '. ', '. \n', '  \n', '\\\n', '! ');
const inlineText = (min: number, max: number, newlines: boolean) =>
  fc
    .array(fc.tuple(word, newlines ? gap : gap.filter((g) => !g.includes('\n'))), { minLength: min, maxLength: max })
    .map((parts) => parts.map(([w, g]) => w + g).join('').replace(/^[\s\\]+/, ''));
const long = (newlines: boolean) => inlineText(100, 500, newlines);

const block = fc.oneof(
  { weight: 4, arbitrary: long(true) },
  { weight: 1, arbitrary: long(false).map((t) => `## ${t.replaceAll('|', '')}`) },
  { weight: 1, arbitrary: long(true).map((t) => t.split('\n').map((l) => `> ${l}`).join('\n')) },
  { weight: 1, arbitrary: long(true).map((t) => t.split('\n').map((l) => `> > ${l}`).join('\n')) },
  {
    weight: 1,
    arbitrary: fc.array(long(false), { minLength: 1, maxLength: 4 }).map((items) => items.map((i) => `- ${i}`).join('\n')),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(long(false), { minLength: 1, maxLength: 3 })
      .map((cells) => `| a | b |\n|---|---|\n${cells.map((c) => `| ${c.replaceAll('|', '\\|')} | x |`).join('\n')}`),
  },
  { weight: 1, arbitrary: fc.constant('[ref]: https://example.com/ref') },
);
const doc = fc.array(block, { minLength: 1, maxLength: 4 }).map((blocks) => blocks.join('\n\n'));

const fresh = (text: string, streaming: boolean) => {
  const { container, unmount } = render(<MarkdownText streaming={streaming}>{text}</MarkdownText>);
  const html = container.innerHTML;
  unmount();
  return html;
};

describe('review: streamed React re-renders equal a fresh render', () => {
  it('every prefix, then final', () => {
    let maxLen = 0;
    fc.assert(
      fc.property(streamedPrefixes(doc, 30), (prefixes) => {
        const { container, rerender, unmount } = render(<MarkdownText streaming>{''}</MarkdownText>);
        try {
          for (const prefix of prefixes) {
            maxLen = Math.max(maxLen, prefix.length);
            rerender(<MarkdownText streaming>{prefix}</MarkdownText>);
            expect(container.innerHTML, `prefix length ${prefix.length}`).toBe(fresh(prefix, true));
          }
          const full = prefixes.at(-1)!;
          rerender(<MarkdownText streaming={false}>{full}</MarkdownText>);
          expect(container.innerHTML).toBe(fresh(full, false));
        } finally {
          unmount();
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 40) },
    );
    console.log('max length', maxLen);
  }, 600_000);
});
