import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamedPrefixes } from '../test-support/streamed-text.test-helper.js';
import { CHUNK_CHARS, chunkText, type TextChunks } from './text-chunks.js';

const line = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ minLength: 900, maxLength: 1400 }));
const text = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));

describe('chunkText', () => {
  it('cuts a streamed text exactly where it cuts the whole text, and the pieces are the text', () => {
    fc.assert(
      fc.property(streamedPrefixes(text, 10), (prefixes) => {
        let chunks: TextChunks | null = null;
        for (const prefix of prefixes) {
          chunks = chunkText(chunks, prefix);
          expect(chunks).toEqual(chunkText(null, prefix));
          expect(chunks.settled.join('') + chunks.tail).toBe(prefix);
          for (const piece of chunks.settled) {
            expect(piece.endsWith('\n')).toBe(true);
            expect(piece.length).toBeGreaterThanOrEqual(CHUNK_CHARS);
          }
        }
      }),
    );
  });

  it('keeps one piece for text without line breaks, and starts over for a text that does not extend the last', () => {
    const long = 'x'.repeat(5 * CHUNK_CHARS);
    expect(chunkText(null, long)).toEqual({ text: long, settled: [], tail: long });
    const first = chunkText(null, `${'a'.repeat(CHUNK_CHARS)}\nrest`);
    expect(chunkText(first, 'other')).toEqual({ text: 'other', settled: [], tail: 'other' });
  });
});
