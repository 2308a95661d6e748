import { splitRandomly, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SSEMessage } from './sse-message.js';
import { createSSEDecoder } from './sse-decoder.js';
import { createSSEParser } from './sse-parser.js';

/** The reference: every byte decoded at once by one decoder, then parsed (what the chunked decoder must equal). */
function decodeWhole(bytes: Uint8Array): SSEMessage[] {
  const messages: SSEMessage[] = [];
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  createSSEParser((message) => messages.push(message))(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return messages;
}

function decodeChunks(chunks: readonly Uint8Array[]): SSEMessage[] {
  const messages: SSEMessage[] = [];
  const decoder = createSSEDecoder((message) => messages.push(message));
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return messages;
}

// Pieces that make chunk ends fall on ASCII, inside multi-byte characters, and on broken UTF-8 alike.
const piece = fc.oneof(
  fc.constantFrom('data: ', 'event: a\n', 'id: 7\n', '\n', '\r\n', '\n\n', 'é', '🦅', '€', 'x', '\uFEFF'),
  fc.constantFrom([0xe2, 0x82], [0xff], [0xf0, 0x9f], [0xc3], [0x80], [0xef, 0xbb, 0xbf]),
);

describe('createSSEDecoder', () => {
  it('decodes any bytes, cut anywhere, as one decoder reading them whole does (broken UTF-8 and BOMs included)', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer(),
        (pieces, cuts, seed) => {
          const bytes = Uint8Array.from(
            pieces.flatMap((part) => (typeof part === 'string' ? [...toBytes(part)] : part)),
          );
          const whole = decodeWhole(Uint8Array.from([...bytes, ...toBytes('\n\n')]));
          const chunks = [...splitRandomly(bytes, cuts, seed), toBytes('\n\n')];
          expect(decodeChunks(chunks)).toEqual(whole);
        },
      ),
      { numRuns: 500 },
    );
  });
});
