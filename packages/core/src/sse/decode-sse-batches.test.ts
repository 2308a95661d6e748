import { chunksToStream, getScenario, splitRandomly, stepsToSSE, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SSEMessage } from './sse-message.js';
import { decodeSSE, decodeSSEBatches } from './decode-sse.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('decodeSSEBatches', () => {
  it('yields what decodeSSE yields, in order, however the bytes are cut, and never an empty batch', async () => {
    const bytes = toBytes(stepsToSSE(getScenario('completed-payload').steps) + 'data: café 🦅\r\rdata: tail\n\n');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer(), async (cuts, seed) => {
        const chunks = splitRandomly(bytes, cuts, seed);
        const batches = await collect(decodeSSEBatches(chunksToStream(chunks)));
        const messages = await collect(decodeSSE(chunksToStream(chunks)));
        expect(batches.every((batch) => batch.length > 0)).toBe(true);
        expect(batches.length).toBeLessThanOrEqual(chunks.length + 1);
        expect(batches.flat()).toEqual(messages);
      }),
      { numRuns: 200 },
    );
  });

  it('hands over the messages a chunk completed as soon as that chunk arrives', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const iterator = decodeSSEBatches(stream)[Symbol.asyncIterator]();
    controller.enqueue(toBytes('data: a\n\ndata: b\n\ndata: c'));
    expect((await iterator.next()).value).toEqual([
      expect.objectContaining({ data: 'a' }),
      expect.objectContaining({ data: 'b' }),
    ]);
    controller.enqueue(toBytes('\n\n'));
    expect((await iterator.next()).value).toEqual([
      expect.objectContaining({ data: 'c' }),
    ] satisfies Partial<SSEMessage>[]);
    await iterator.return?.();
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(toBytes('data: a\n\n')),
      cancel: () => void (cancelled = true),
    });
    for await (const batch of decodeSSEBatches(stream)) if (batch.length > 0) break;
    expect(cancelled).toBe(true);
  });
});
