import { createCodeAnswer, createListAnswer, createMarkdownAnswer, createTableAnswer } from '@kestrel/testing';

/**
 * The answers a full-view trial can stream (BENCH_ANSWER): the mixed markdown answer of issue 17, or one long block
 * that never settles until it ends (a model writing a file, listing records, enumerating steps).
 */
export const BENCH_ANSWERS = {
  markdown: createMarkdownAnswer,
  code: createCodeAnswer,
  table: createTableAnswer,
  list: createListAnswer,
} as const;

export type BenchAnswerKind = keyof typeof BENCH_ANSWERS;

/** The answer BENCH_ANSWER names (default markdown), of about `length` characters. */
export function benchAnswer(length: number): { readonly kind: BenchAnswerKind; readonly text: string } {
  const kind = (process.env.BENCH_ANSWER ?? 'markdown') as BenchAnswerKind;
  if (!Object.hasOwn(BENCH_ANSWERS, kind))
    throw new Error(`BENCH_ANSWER must be one of ${Object.keys(BENCH_ANSWERS).join(', ')} (got ${kind})`);
  return { kind, text: BENCH_ANSWERS[kind]({ length }) };
}
