import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { lexMarkdownBlocks, type MarkdownBlocks } from './markdown-blocks.js';

// `--expose-gc` set at run time, and `gc` taken from a fresh context, where it now exists (as core's memory tests do).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Streams `text` in steps of `step` characters, the text a new string at every update as a run's draft is. */
function streamed(text: string, step: number): MarkdownBlocks {
  let lexed: MarkdownBlocks | null = null;
  let draft = '';
  for (let end = step; end < text.length + step; end += step) {
    draft += text.slice(draft.length, end);
    lexed = lexMarkdownBlocks(lexed, draft);
  }
  return lexed!;
}

/** Heap bytes per character that the last result of streaming `text` keeps alive. */
function keptBytesPerCharacter(text: string, step: number): number {
  // A small stream first, so what the first one allocates once (compiled code, marked's rules) is not counted.
  streamed(text.slice(0, 10 * step), step);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = streamed(text, step);
  gc();
  gc();
  const perCharacter = (process.memoryUsage().heapUsed - before) / text.length;
  expect(kept.text).toBe(text);
  return perCharacter;
}

describe('what a streamed answer keeps', () => {
  // Each settled block holding a slice of the text of its update kept one copy of the answer per update: about 90
  // bytes a character here, where the tokens themselves take about 30.
  it('keeps no copy of the whole text per block that settled', () => {
    const paragraphs = 'So the kestrel hovers over **the field**.\n\n'.repeat(3_000);
    expect(keptBytesPerCharacter(paragraphs, 1_000)).toBeLessThan(60);
  });

  // Each piece kept from an earlier update held a slice of that update's text: about 56 bytes a character, 15 without.
  it('keeps no copy of the whole text per piece of a long paragraph', () => {
    // Each sentence its own, so no two pieces are alike (a piece met twice in one lex is lexed once).
    const prose = Array.from({ length: 2_000 }, (_, index) => `So kestrel ${index} hovers over **the field**. `).join(
      '',
    );
    expect(keptBytesPerCharacter(prose, 1_000)).toBeLessThan(35);
  });
});
