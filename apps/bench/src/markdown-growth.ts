import { MarkdownText } from '@kestrel/react/markdown';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { median } from './harness.js';

/** Paragraphs whose inline text marked's rules once read in quadratic time, and ordinary words beside them. */
const PARAGRAPHS: Readonly<Record<string, (length: number) => string>> = {
  words: (length) => 'the kestrel **hovers** over a `field` '.repeat(length / 38),
  'a_ repeated': (length) => 'a_'.repeat(length / 2),
  '_a repeated': (length) => '_a'.repeat(length / 2),
  'a long word, then @': (length) => `${'a'.repeat(length - 1)}@`,
};

/** One paragraph's cost per 1,000 characters at each length, and the largest over the smallest (1 = linear). */
export interface MarkdownParagraphGrowth {
  readonly paragraph: string;
  readonly lengths: readonly number[];
  readonly msPerThousand: readonly number[];
  readonly ratio: number;
}

/*
 * One paragraph of each kind through <MarkdownText> as a page renders a settled answer (lexed and rendered to HTML),
 * at 8,000 and 64,000 characters, lengths taking turns in each round. A cost that grows with the paragraph's length
 * (marked's inline rules on some text, before inline text was lexed in pieces) shows as a ratio of about 8.
 */
export function measureMarkdownParagraphs(rounds = 3, lengths = [8_000, 64_000]): MarkdownParagraphGrowth[] {
  return Object.entries(PARAGRAPHS).map(([paragraph, make]) => {
    const texts = lengths.map(make);
    renderToString(createElement(MarkdownText, null, texts[0]));
    const samples = lengths.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      texts.forEach((text, index) => {
        const start = performance.now();
        renderToString(createElement(MarkdownText, null, text));
        const ms = performance.now() - start;
        samples[index]!.push((ms * 1000) / text.length);
      });
    }
    const msPerThousand = samples.map((times) => Number(median(times).toFixed(3)));
    return {
      paragraph,
      lengths,
      msPerThousand,
      ratio: Number((msPerThousand.at(-1)! / msPerThousand[0]!).toFixed(2)),
    };
  });
}
