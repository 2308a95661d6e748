import { chunksToStream, splitAt, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SSEMessage } from './sse-message.js';
import { decodeSSE } from './decode-sse.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import { createSSEParser } from './sse-parser.js';

interface Decoded {
  readonly messages: SSEMessage[];
  readonly comments: string[];
}

async function decode(chunks: readonly Uint8Array[]): Promise<Decoded> {
  const decoded: Decoded = { messages: [], comments: [] };
  for await (const message of decodeSSE(chunksToStream(chunks), {
    onComment: (comment) => decoded.comments.push(comment),
  }))
    decoded.messages.push(message);
  return decoded;
}

/** Every way of cutting `text` in two, plus whole: what the decoder yields must not depend on the cut. */
async function decodeEveryCut(text: string): Promise<Decoded> {
  const bytes = toBytes(text);
  const whole = await decode([bytes]);
  for (let cut = 1; cut < bytes.length; cut++) expect(await decode(splitAt(bytes, [cut]))).toEqual(whole);
  return whole;
}

/**
 * The WHATWG event-stream interpretation, step by step, for clarity rather than speed: decode everything, split
 * into lines, drop the unterminated last one, then walk the fields. Two steps follow the kit instead of the spec,
 * as eventsource-parser 3.1.1 did before it: `id` is per message (reset at every blank line, not carried over as
 * a "last event ID"), and an empty event type reads as undefined (the spec would say "message").
 */
function reference(bytes: Uint8Array): Decoded {
  const decoded: Decoded = { messages: [], comments: [] };
  const text = new TextDecoder().decode(bytes); // "decoded as UTF-8 ... One leading U+FEFF BYTE ORDER MARK character must be ignored"
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // what follows the last line ending is an unfinished line: "incomplete ... discarded"
  let data = '';
  let eventType = '';
  let id: string | undefined;
  const processField = (field: string, value: string) => {
    if (field === 'event') eventType = value;
    else if (field === 'data') data += `${value}\n`;
    else if (field === 'id') {
      if (!value.includes('\0')) id = value;
    }
    // "retry": sets the reconnection time, not surfaced; "Otherwise: The field is ignored."
  };
  for (const line of lines) {
    if (line === '') {
      // "If the data buffer is an empty string, set the data buffer and the event type buffer to the empty string and return."
      if (data !== '')
        decoded.messages.push({ id, event: eventType === '' ? undefined : eventType, data: data.slice(0, -1) });
      data = '';
      eventType = '';
      id = undefined;
    } else if (line.startsWith(':')) decoded.comments.push(line.slice(1).trimStart());
    else if (line.includes(':')) {
      const colon = line.indexOf(':');
      const value = line.slice(colon + 1);
      processField(line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value);
    } else processField(line, '');
  }
  return decoded;
}

describe('createSSEParser (the WHATWG rules, through decodeSSE)', () => {
  it('gives every message the same { id, event, data } shape eventsource-parser gave, keys present even when undefined', async () => {
    const { messages } = await decode([toBytes('data: a\n\nevent: e\nid: 1\ndata: b\n\n')]);
    expect(messages.map((message) => Object.entries(message))).toEqual([
      [
        ['id', undefined],
        ['event', undefined],
        ['data', 'a'],
      ],
      [
        ['id', '1'],
        ['event', 'e'],
        ['data', 'b'],
      ],
    ]);
  });

  it('reads a CR-only stream, however it is cut', async () => {
    expect((await decodeEveryCut('event: a\rid: 1\rdata: one\rdata: two\r\r: c\r\rdata: three\r\r')).messages).toEqual([
      { id: '1', event: 'a', data: 'one\ntwo' },
      { data: 'three' },
    ]);
  });

  it('takes a CRLF split across chunks as one line ending, not an extra blank line', async () => {
    // Were the LF read as a blank line, 'a' would be dispatched alone and 'b' as a second message.
    expect(await decode(['data: a\r', '\ndata: b\r', '\n\r', '\n'].map(toBytes))).toEqual({
      messages: [{ data: 'a\nb' }],
      comments: [],
    });
  });

  it('ignores a BOM split over three chunks, and only the first one', async () => {
    const bytes = toBytes('\uFEFFdata: x\n\n');
    expect((await decode(splitAt(bytes, [1, 2, 3]))).messages).toEqual([{ data: 'x' }]);
    expect((await decodeEveryCut('\uFEFF\uFEFFdata: x\n\n')).messages).toEqual([]); // the second BOM starts a field name
  });

  it('reads a line without a colon as a field with an empty value', async () => {
    expect((await decodeEveryCut('data\ndata\n\nevent\nid\ndata: x\n\n')).messages).toEqual([
      { data: '\n' },
      { id: '', data: 'x' },
    ]);
  });

  it('removes exactly one space after the colon, and none when there is none', async () => {
    expect(
      (await decodeEveryCut('data:x\n\ndata:  two\n\nevent:  e\ndata:\t tab\n\nid:  7\ndata: \n\n')).messages,
    ).toEqual([{ data: 'x' }, { data: ' two' }, { event: ' e', data: '\t tab' }, { id: ' 7', data: '' }]);
  });

  it('hands comments over without the colon and leading whitespace, never as data', async () => {
    expect(await decodeEveryCut(':\n:  two spaces \n:\tdata: no\ndata: x\n: inside : colon\n\n')).toEqual({
      messages: [{ data: 'x' }],
      comments: ['', 'two spaces ', 'data: no', 'inside : colon'],
    });
  });

  it('ignores an id that contains NUL, keeping the one before it in the same message', async () => {
    expect((await decodeEveryCut('id: 1\nid: 2\0\ndata: a\n\nid: 3\0\ndata: b\n\n')).messages).toEqual([
      { id: '1', data: 'a' },
      { data: 'b' },
    ]);
  });

  it('ignores retry and unknown fields, including near misses of known names', async () => {
    expect(
      (await decodeEveryCut('retry: 10\nretry: x\nDATA: up\n data: sp\ndata : sp\ndatum: d\ndata: kept\n\n')).messages,
    ).toEqual([{ data: 'kept' }]);
  });

  it('does not dispatch a message without data lines, and its fields do not leak into the next', async () => {
    expect((await decodeEveryCut('event: ping\nid: 9\n\n: c\n\n\n\ndata: x\n\n')).messages).toEqual([{ data: 'x' }]);
  });

  it('tells onNoData of each block with fields but no data, with its id, and places no boundary inside one', () => {
    const noData: (string | undefined)[] = [];
    const boundaries: number[] = [];
    const text = 'event: ping\nid: 9\n\nretry: 5\n\n: c\n\ndata: x\n\n';
    createSSEParser(
      () => undefined,
      undefined,
      undefined,
      (index) => boundaries.push(index),
      (id) => noData.push(id),
    )(text);
    expect(noData).toEqual(['9', undefined]);
    // Only after whole blocks (and the comment line): never after `event:`, `id:` or `retry:` alone.
    expect(boundaries.map((index) => text.slice(0, index).split('\n').at(-2))).toEqual(['', '', ': c', '', '']);
  });

  it('drops an unterminated last message, whether it ends mid-line, after a line or after a CR-less data line', async () => {
    for (const tail of ['data: cut', 'data: cut\n', 'data: cut\r', 'data: cut\r\n', 'event: a\ndata: b\ndata'])
      expect((await decodeEveryCut(`data: whole\n\n${tail}`)).messages).toEqual([{ data: 'whole' }]);
  });

  it('joins a long line fed a character at a time', () => {
    const messages: SSEMessage[] = [];
    const feed = createSSEParser((message) => messages.push(message));
    for (const character of `data: ${'x'.repeat(1000)}\r\n\r\n`) feed(character);
    expect(messages).toEqual([{ data: 'x'.repeat(1000) }]);
  });

  it('yields what the spec reference yields, under random lines, line endings and chunking', async () => {
    const line = fc.oneof(
      fc.constantFrom(
        '',
        '',
        '',
        'data: x',
        'data:y',
        'data:  two',
        'data',
        'data:',
        'data: é🦅',
        'event: a',
        'event:',
        'event',
        'id: 7',
        'id',
        'id: a\0b',
      ),
      fc.constantFrom(
        'retry: 10',
        'retry: x',
        ': c',
        ':',
        ':  c',
        'foo: bar',
        'foo',
        'DATA: no',
        ' data: sp',
        'data : sp',
        'data:\uFEFF',
        // Near misses of the names read in place by their first character.
        'dat: no',
        'd: no',
        'datum: no',
        'ev: no',
        'eventx: no',
        'i: 1',
        'idx: 1',
        'id:',
        'id:3',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }).map((text) => text.replace(/[\r\n]/g, '')),
    );
    const eol = fc.constantFrom('\n', '\r', '\r\n');
    const body = fc.record({
      bom: fc.boolean(),
      lines: fc.array(fc.tuple(line, eol), { maxLength: 30 }),
      tail: fc.constantFrom('', 'data: cut', 'event: a'),
      cuts: fc.array(fc.nat(), { maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(body, async ({ bom, lines, tail, cuts }) => {
        const bytes = toBytes(`${bom ? '\uFEFF' : ''}${lines.map(([text, ending]) => text + ending).join('')}${tail}`);
        expect(
          await decode(
            splitAt(
              bytes,
              cuts.map((cut) => cut % (bytes.length + 1)),
            ),
          ),
        ).toEqual(reference(bytes));
      }),
      { numRuns: 400 },
    );
  });
});

describe('createSSEParser size limit', () => {
  const collect = (limit: number) => {
    const messages: SSEMessage[] = [];
    return { messages, feed: createSSEParser((message) => messages.push(message), undefined, limit) };
  };

  it('accepts a line and a message exactly at the limit', () => {
    const { messages, feed } = collect(20);
    feed(`data: ${'a'.repeat(14)}\n\n`); // the line is 20 characters
    feed(`data: ${'b'.repeat(9)}\ndata: ${'c'.repeat(10)}\n\n`); // data joined: 9 + 1 + 10 = 20
    expect(messages.map((message) => message.data)).toEqual(['a'.repeat(14), `${'b'.repeat(9)}\n${'c'.repeat(10)}`]);
  });

  it('throws a ProtocolError naming size and limit for a complete line over it', () => {
    expect(() => collect(20).feed(`data: ${'a'.repeat(15)}\n`)).toThrow(
      new ProtocolError('SSE message of 21+ bytes is over maxMessageBytes (20)'),
    );
  });

  it('throws for a line that has not ended yet, once the unfinished part is over the limit, whatever the chunks', () => {
    const { feed } = collect(20);
    for (let i = 0; i < 3; i++) feed('data: '); // 18 characters in three chunks, no line ending yet
    expect(() => feed('xyz')).toThrow('SSE message of 21+ bytes is over maxMessageBytes (20)');
  });

  it('throws for a message whose data lines together go over the limit', () => {
    const { feed } = collect(20);
    expect(() => feed(`data: ${'a'.repeat(10)}\ndata: ${'b'.repeat(10)}\n`)).toThrow(
      'SSE message of 21+ bytes is over maxMessageBytes (20)',
    );
  });

  it('decodeSSE ends the stream with that error', async () => {
    const stream = chunksToStream([toBytes(`data: ${'x'.repeat(100)}`)]);
    const read = (async () => {
      for await (const message of decodeSSE(stream, { maxMessageBytes: 50 })) void message;
    })();
    await expect(read).rejects.toThrow('SSE message of 106+ bytes is over maxMessageBytes (50)');
  });

  it('decodeSSE first delivers the messages that came before the oversized line in the same chunk', async () => {
    const stream = chunksToStream([toBytes(`data: one\n\ndata: two\n\ndata: ${'x'.repeat(100)}`)]);
    const seen: string[] = [];
    const read = (async () => {
      for await (const message of decodeSSE(stream, { maxMessageBytes: 50 })) seen.push(message.data);
    })();
    await expect(read).rejects.toThrow('over maxMessageBytes (50)');
    expect(seen).toEqual(['one', 'two']);
  });
});
