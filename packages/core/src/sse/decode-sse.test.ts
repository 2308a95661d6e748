import { chunksToStream, splitAt, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SSEMessage } from './sse-message.js';
import { decodeSSE } from './decode-sse.js';

async function decodeChunks(
  chunks: readonly Uint8Array[],
  onComment?: (comment: string) => void,
): Promise<SSEMessage[]> {
  const messages: SSEMessage[] = [];
  for await (const message of decodeSSE(chunksToStream(chunks), { onComment })) messages.push(message);
  return messages;
}

const decodeText = (text: string, onComment?: (comment: string) => void) => decodeChunks([toBytes(text)], onComment);

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

describe('decodeSSE', () => {
  it('decodes event name, id and data', async () => {
    expect(await decodeText('event: text.delta\nid: 3\ndata: {"a":1}\n\n')).toEqual([
      { event: 'text.delta', id: '3', data: '{"a":1}' },
    ]);
  });

  it('ignores a leading BOM, even when it is split across chunks', async () => {
    const bytes = concat(BOM, toBytes('data: first\n\n'));
    expect(await decodeChunks([bytes])).toEqual([{ data: 'first' }]);
    expect(await decodeChunks(splitAt(bytes, [1, 2, 4]))).toEqual([{ data: 'first' }]);
  });

  it('keeps a BOM that is not at the very start as data', async () => {
    expect(await decodeChunks([concat(toBytes('data: a'), BOM, toBytes('\n\n'))])).toEqual([{ data: 'a\uFEFF' }]);
  });

  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('accepts %s line endings', async (_name, eol) => {
    const text = ['event: a', 'id: 1', 'data: one', '', 'data: two', '', ''].join(eol);
    expect(await decodeText(text)).toEqual([{ event: 'a', id: '1', data: 'one' }, { data: 'two' }]);
  });

  it('accepts mixed line endings, and a CRLF split between chunks as one line ending', async () => {
    const bytes = toBytes('data: a\r\ndata: b\r\n\r\ndata: c\n\rdata: d\r\r');
    const expected = [{ data: 'a\nb' }, { data: 'c' }, { data: 'd' }];
    expect(await decodeChunks([bytes])).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut++) expect(await decodeChunks(splitAt(bytes, [cut]))).toEqual(expected);
  });

  it('treats CR, LF as one line ending however the chunks fall, and a later LF as a new line', async () => {
    const pieces = ['data: a\r', '\n', '\n', 'data: b\r', '', '\n\r', '\n'];
    expect(await decodeChunks(pieces.map(toBytes))).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('dispatches a CR-terminated message at once, without waiting for the next chunk', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(toBytes('data: now\r\r')),
    });
    const iterator = decodeSSE(stream)[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { data: 'now' } });
    await iterator.return?.();
  });

  it('reports comments to onComment and never as messages', async () => {
    const comments: string[] = [];
    const messages = await decodeText(': keep-alive\n\n:no space\ndata: x\n: inside\n\n', (comment) =>
      comments.push(comment),
    );
    expect(messages).toEqual([{ data: 'x' }]);
    expect(comments).toEqual(['keep-alive', 'no space', 'inside']);
  });

  it('joins several data lines with \\n and keeps empty ones', async () => {
    expect(await decodeText('data: {\ndata:  "a": 1\ndata:\ndata: }\n\n')).toEqual([{ data: '{\n "a": 1\n\n}' }]);
  });

  it('gives each message only its own id', async () => {
    expect(await decodeText('id: 1\ndata: a\n\ndata: b\n\nid: 3\ndata: c\n\n')).toEqual([
      { id: '1', data: 'a' },
      { data: 'b' },
      { id: '3', data: 'c' },
    ]);
  });

  it('does not dispatch a block without data', async () => {
    expect(await decodeText('event: ping\nid: 9\n\ndata: x\n\n')).toEqual([{ data: 'x' }]);
  });

  it('does not dispatch a message cut off by the end of the stream', async () => {
    expect(await decodeText('data: whole\n\ndata: cut off\n')).toEqual([{ data: 'whole' }]);
    expect(await decodeText('data: whole\n\nevent: text.delta\ndata: {"type":"text.')).toEqual([{ data: 'whole' }]);
  });

  it('decodes a multi-byte character split across chunks', async () => {
    const bytes = toBytes('data: naïve 東京 🚀\n\n');
    const rocket = bytes.indexOf(0xf0);
    expect(await decodeChunks(splitAt(bytes, [rocket + 1, rocket + 2, rocket + 3]))).toEqual([
      { data: 'naïve 東京 🚀' },
    ]);
  });

  it('yields messages as chunks arrive, before the stream ends', async () => {
    const encoder = new TextEncoder();
    let push: ((text: string) => void) | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => void (push = (text) => controller.enqueue(encoder.encode(text))),
    });
    const iterator = decodeSSE(stream)[Symbol.asyncIterator]();
    push?.('data: first\n\n');
    expect(await iterator.next()).toEqual({ done: false, value: { data: 'first' } });
    await iterator.return?.();
  });

  it('reports every chunk to onBytes', async () => {
    const sizes: number[] = [];
    const chunks = splitAt(toBytes(': keep-alive\n\ndata: x\n\n'), [3, 10]);
    for await (const _message of decodeSSE(chunksToStream(chunks), { onBytes: (size) => sizes.push(size) }))
      void _message;
    expect(sizes).toEqual(chunks.map((chunk) => chunk.length));
  });

  it('cancels the stream when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(toBytes('data: again\n\n')),
      cancel: () => void (cancelled = true),
    });
    for await (const message of decodeSSE(stream)) {
      expect(message.data).toBe('again');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('passes a stream error on to the reader', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(toBytes('data: before\n\n'));
        controller.error(new Error('socket hang up'));
      },
    });
    const seen: string[] = [];
    await expect(async () => {
      for await (const message of decodeSSE(stream)) seen.push(message.data);
    }).rejects.toThrow('socket hang up');
    expect(seen.length).toBeLessThanOrEqual(1);
  });
});

/*
 * Any split of the same bytes must decode to the same messages. The text mixes line endings (a CR and LF split
 * apart is the classic bug), comments, a BOM, multi-line data and multi-byte characters (splits inside them).
 */
describe('decodeSSE chunking property', () => {
  const lineText = fc
    .oneof(
      fc.constantFrom(
        'naïve 東京 🚀',
        '{"type":"text.delta","delta":"é"}',
        'Ωmega ☕',
        ' leading space',
        '',
        '👩‍👩‍👧 family',
      ),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    )
    .map((text) => text.replace(/[\r\n\0]/g, ''));
  const token = fc.stringMatching(/^[a-z][a-z./]{0,11}$/);
  const message = fc.record({
    event: fc.option(token, { nil: undefined }),
    id: fc.option(fc.nat({ max: 10_000 }).map(String), { nil: undefined }),
    dataLines: fc.array(lineText, { minLength: 1, maxLength: 4 }),
    comment: fc.option(lineText, { nil: undefined }),
  });
  const stream = fc.record({
    bom: fc.boolean(),
    eols: fc.array(fc.constantFrom('\n', '\r', '\r\n'), { minLength: 1, maxLength: 5 }),
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    tail: fc.option(lineText, { nil: undefined }),
    cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
  });

  it('any split into chunks yields the same messages', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async ({ bom, eols, messages, tail, cuts }) => {
        let lines = 0;
        let previous = '';
        // A CR followed by an LF would be one CRLF, not two line endings.
        const eol = () => {
          const next = eols[lines++ % eols.length] ?? '\n';
          previous = previous === '\r' && next === '\n' ? '\r\n' : next;
          return previous;
        };
        let text = '';
        for (const m of messages) {
          if (m.comment !== undefined) text += `:${m.comment}${eol()}`;
          if (m.event !== undefined) text += `event: ${m.event}${eol()}`;
          if (m.id !== undefined) text += `id: ${m.id}${eol()}`;
          for (const line of m.dataLines) text += `data: ${line}${eol()}`;
          text += eol();
        }
        if (tail !== undefined) text += `data: ${tail}${eol()}`; // never dispatched: no blank line follows
        const bytes = bom ? concat(BOM, toBytes(text)) : toBytes(text);
        const expected = messages.map((m) => ({
          ...(m.event === undefined ? {} : { event: m.event }),
          ...(m.id === undefined ? {} : { id: m.id }),
          data: m.dataLines.join('\n'),
        }));
        const offsets = cuts.map((cut) => Math.floor(cut * bytes.length));
        const normalize = (list: SSEMessage[]) => list.map((m) => JSON.parse(JSON.stringify(m)) as unknown);
        expect(normalize(await decodeChunks(splitAt(bytes, offsets)))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('one byte per chunk yields the same messages as one chunk', async () => {
    const bytes = concat(
      BOM,
      toBytes('event: text.delta\r\nid: 1\r\ndata: naïve 東京 🚀\r\ndata: second line\r\n\r\n: ping\rdata: 2\r\r'),
    );
    const whole = await decodeChunks([bytes]);
    expect(whole).toEqual([{ event: 'text.delta', id: '1', data: 'naïve 東京 🚀\nsecond line' }, { data: '2' }]);
    expect(await decodeChunks(Array.from(bytes, (byte) => new Uint8Array([byte])))).toEqual(whole);
  });
});
