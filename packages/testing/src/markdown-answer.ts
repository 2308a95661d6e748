import { seededRandom } from './sse.js';

/** Options of `createMarkdownAnswer`. */
export interface MarkdownAnswerOptions {
  /** The least length of the answer in UTF-16 code units (about bytes: ASCII but for a few words). Default 200 000. */
  readonly length?: number;
  /** Same seed, same text. Default 17. */
  readonly seed?: number;
}

const WORDS = [
  'the',
  'invoice',
  'total',
  'vendor',
  'agent',
  'stream',
  'delta',
  'answer',
  'report',
  'quarter',
  'revenue',
  'café',
  'naïve',
  'margin',
  'model',
  'token',
  'budget',
  'review',
  'and',
  'of',
  'with',
  'for',
];

const CODE = [
  'const total = items.reduce((sum, item) => sum + item.amount, 0);',
  'if (total > budget) throw new Error(`over budget by ${total - budget}`);',
  'for (const line of invoice.lines) console.log(line.description);',
  'export async function fetchInvoice(id: string) {',
  '  return (await fetch(`/api/invoices/${id}`)).json();',
  '}',
];

/**
 * A long, realistic assistant answer in markdown, as a model writes one: headings, paragraphs with emphasis, inline
 * code, inline and reference links, loose and tight lists, fenced code, tables and quotes. Deterministic for a seed;
 * it ends with the block that reaches `length` (so no fence is left open). The load for markdown render tests and
 * the Chromium bench.
 *
 * @example
 * const text = createMarkdownAnswer({ length: 200_000 });
 * const deltas = splitIntoDeltas(text, 20_000);
 */
export function createMarkdownAnswer(options: MarkdownAnswerOptions = {}): string {
  const length = options.length ?? 200_000;
  if (!Number.isSafeInteger(length) || length < 1)
    throw new RangeError(`createMarkdownAnswer: length must be a positive integer (got ${length})`);
  const random = seededRandom(options.seed ?? 17);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const sentence = () => {
    const text = words(6 + Math.floor(random() * 10));
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (section: number) => {
    const parts = Array.from({ length: 3 + Math.floor(random() * 3) }, sentence);
    const roll = random();
    if (roll < 0.25) parts.splice(1, 0, `See [the ${pick(WORDS)} guide](https://example.com/docs/${section}).`);
    else if (roll < 0.4)
      parts.splice(1, 0, `As [the ${pick(WORDS)} notes][ref-${section}] say, use \`${pick(WORDS)}()\`.`);
    else if (roll < 0.55) parts.splice(2, 0, `This is **${words(2)}** and *${words(2)}*.`);
    return parts.join(' ');
  };
  const looseList = () =>
    Array.from({ length: 3 }, (_, i) => `${i + 1}. ${sentence()}\n\n   ${sentence()}`).join('\n\n');
  const tightList = () => Array.from({ length: 4 }, () => `- ${words(3)}: ${sentence()}`).join('\n');
  const code = () => {
    const lines = Array.from({ length: 4 + Math.floor(random() * 6) }, () => pick(CODE));
    return `\`\`\`ts\n${lines.join('\n')}\n\`\`\``;
  };
  const table = () => {
    const rows = Array.from(
      { length: 4 },
      (_, i) => `| ${pick(WORDS)} ${i} | ${Math.floor(random() * 10_000)} | ${(random() * 100).toFixed(1)} % |`,
    );
    return ['| item | amount | share |', '| --- | ---: | ---: |', ...rows].join('\n');
  };

  const blocks: string[] = [];
  let size = 0;
  for (let section = 1; size < length; section++) {
    const sectionBlocks = [
      `## ${section}. ${sentence().slice(0, -1)}`,
      paragraph(section),
      random() < 0.5 ? looseList() : tightList(),
      paragraph(section),
      random() < 0.6 ? code() : `> ${sentence()}`,
      random() < 0.5 ? table() : paragraph(section),
      paragraph(section),
      `[ref-${section}]: https://example.com/reference/${section}`,
    ];
    if (section % 5 === 1) sectionBlocks.unshift(`# Part ${Math.ceil(section / 5)}`);
    for (const block of sectionBlocks) {
      if (size >= length) break;
      blocks.push(block);
      size += block.length + 2;
    }
  }
  return `${blocks.join('\n\n')}\n`;
}

/**
 * An answer that is one long fenced code block, as a model writing a whole file gives: a `ts` fence, then lines of
 * code with a blank line between functions, then the closing fence. While it streams the block stays open, so no
 * part of it settles until the end: the load for code-block render benchmarks. Deterministic for a seed.
 */
export function createCodeAnswer(options: MarkdownAnswerOptions = {}): string {
  return linesAnswer('createCodeAnswer', options, ['```ts'], ['```'], (line, random) =>
    random() < 0.1 ? '' : `${pick(random, CODE)} // ${line}`,
  );
}

/**
 * An answer that is one long GFM table, as a model listing records gives: a header, then rows with emphasis, inline
 * code and links in their cells. No blank line comes until it ends, so while it streams the table never settles:
 * the load for table render benchmarks. Deterministic for a seed.
 */
export function createTableAnswer(options: MarkdownAnswerOptions = {}): string {
  const head = ['| # | item | amount | note |', '| ---: | --- | ---: | --- |'];
  return linesAnswer('createTableAnswer', options, head, [], (row, random) => {
    const note =
      random() < 0.3
        ? `see [the ${pick(random, WORDS)} guide](https://example.com/docs/${row})`
        : `${pick(random, WORDS)} \`${pick(random, WORDS)}()\` ${pick(random, WORDS)}`;
    return `| ${row} | **${pick(random, WORDS)}** ${pick(random, WORDS)} | ${Math.floor(random() * 100_000)} | ${note} |`;
  });
}

/**
 * An answer that is one long tight list, as a model enumerating steps gives: items with emphasis, inline code and
 * links, no blank line between them, so while it streams the list never settles. Deterministic for a seed.
 */
export function createListAnswer(options: MarkdownAnswerOptions = {}): string {
  return linesAnswer('createListAnswer', options, [], [], (item, random) => {
    const words = (count: number) => Array.from({ length: count }, () => pick(random, WORDS)).join(' ');
    const tail =
      random() < 0.3
        ? `[the ${pick(random, WORDS)} guide](https://example.com/docs/${item})`
        : `\`${pick(random, WORDS)}()\``;
    return `- **${words(2)}**: ${words(6 + Math.floor(random() * 8))}, with ${tail}.`;
  });
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** `head`, then lines from `next` (numbered from 1) until they reach `length` characters, then `tail`. */
function linesAnswer(
  name: string,
  options: MarkdownAnswerOptions,
  head: readonly string[],
  tail: readonly string[],
  next: (line: number, random: () => number) => string,
): string {
  const length = options.length ?? 200_000;
  if (!Number.isSafeInteger(length) || length < 1)
    throw new RangeError(`${name}: length must be a positive integer (got ${length})`);
  const random = seededRandom(options.seed ?? 17);
  const lines = [...head];
  for (let line = 1, size = 0; size < length; line++) {
    const text = next(line, random);
    lines.push(text);
    size += text.length + 1;
  }
  return `${[...lines, ...tail].join('\n')}\n`;
}

/**
 * Cuts `text` into `count` consecutive deltas of about equal length, as a model's token stream arrives: cuts fall
 * anywhere (inside words, markup and code fences) but never between the two halves of a surrogate pair. Joined,
 * the deltas are exactly `text`; with `count` at most half the text's length, none is empty.
 */
export function splitIntoDeltas(text: string, count: number): string[] {
  if (!Number.isSafeInteger(count) || count < 1 || count > text.length)
    throw new RangeError(
      `splitIntoDeltas: count must be an integer from 1 to the text length ${text.length} (got ${count})`,
    );
  const deltas: string[] = [];
  let start = 0;
  for (let i = 1; i <= count; i++) {
    let end = i === count ? text.length : Math.round((text.length * i) / count);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += 1;
    deltas.push(text.slice(start, end));
    start = end;
  }
  return deltas;
}
