import { MarkdownText } from '@kestrel/react/markdown';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { median } from './harness.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const HAN = '文字中国人大小山水火';

/**
 * `length` characters of `unit` over and over, each with a letter drawn at random (seeded): no two stretches of the
 * text are alike, so no piece of it is lexed once for all its copies.
 */
function varied(length: number, unit: (pick: (from: string) => string) => string): string {
  let seed = 17;
  const pick = (from: string) => {
    seed = (seed * 48_271) % 2_147_483_647;
    return from[seed % from.length]!;
  };
  let text = '';
  while (text.length < length) text += unit(pick);
  return text.slice(0, length);
}

/** Paragraphs whose inline text marked's rules once read in quadratic time, and ordinary words beside them. */
const PARAGRAPHS: Readonly<Record<string, (length: number) => string>> = {
  'words with bold and code': (length) =>
    varied(length, (pick) => `the ${pick(LETTERS)}estrel **hovers** over a \`${pick(LETTERS)}ield\`. `),
  'a_ repeated': (length) => varied(length, (pick) => `${pick(LETTERS)}_`),
  'x_*a repeated': (length) => varied(length, (pick) => `${pick(LETTERS)}_*${pick(LETTERS)} `),
  '*文。 repeated': (length) => varied(length, (pick) => `*${pick(HAN)}。`),
  'a long word, then @': (length) => `${varied(length - 1, (pick) => pick(LETTERS))}@`,
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
