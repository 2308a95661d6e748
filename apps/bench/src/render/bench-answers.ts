import { createCodeAnswer, createListAnswer, createMarkdownAnswer, createTableAnswer } from '@kestrel/testing';

/**
 * One paragraph as long as the answer: the list answer's lines without their bullets, so single line breaks join
 * them (a model writing one line per record or step without markdown). Never settles until it ends.
 */
function createLinesAnswer(options: { readonly length: number }): string {
  return createListAnswer(options).replace(/^- /gm, '');
}

/**
 * The answers a full-view trial can stream (BENCH_ANSWER): the mixed markdown answer of issue 17, or one long block
 * that never settles until it ends (a model writing a file, listing records, enumerating steps, writing lines).
 */
export const BENCH_ANSWERS = {
  markdown: createMarkdownAnswer,
  code: createCodeAnswer,
  table: createTableAnswer,
  list: createListAnswer,
  lines: createLinesAnswer,
} as const;

export type BenchAnswerKind = keyof typeof BENCH_ANSWERS;

/** The answer BENCH_ANSWER names (default markdown), of about `length` characters. */
export function benchAnswer(length: number): { readonly kind: BenchAnswerKind; readonly text: string } {
  const kind = (process.env.BENCH_ANSWER ?? 'markdown') as BenchAnswerKind;
  if (!Object.hasOwn(BENCH_ANSWERS, kind))
    throw new Error(`BENCH_ANSWER must be one of ${Object.keys(BENCH_ANSWERS).join(', ')} (got ${kind})`);
  return { kind, text: BENCH_ANSWERS[kind]({ length }) };
}
