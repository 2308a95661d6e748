import { describe, expect, it } from 'vitest';
import { createChunkQueue } from './chunk-queue.js';

/** Reads every chunk until the stream ends; rejects with its error, after pushing what came before it to `out`. */
async function drain<T>(stream: ReadableStream<T>, out: T[] = []): Promise<T[]> {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

describe('createChunkQueue', () => {
  it('keeps one waiting chunk per replace key, in the place of the first, so a slow reader holds one draft', async () => {
    const queue = createChunkQueue<{ type: string; text: string }>({
      replaceKey: (chunk) => (chunk.type === 'draft' ? 'draft' : undefined),
    });
    queue.push({ type: 'start', text: '' }, { type: 'draft', text: 'He' }, { type: 'tool', text: 'search' });
    for (let i = 0; i < 1000; i += 1) queue.push({ type: 'draft', text: `Hello ${i}` });
    queue.push({ type: 'finish', text: '' });
    queue.close();
    expect(await drain(queue.stream)).toEqual([
      { type: 'start', text: '' },
      { type: 'draft', text: 'Hello 999' },
      { type: 'tool', text: 'search' },
      { type: 'finish', text: '' },
    ]);
  });

  it('keeps every chunk when no key is given, and delivers a failure after them', async () => {
    const queue = createChunkQueue<number>();
    queue.push(1, 2, 2);
    queue.fail(new Error('boom'));
    const seen: number[] = [];
    await expect(drain(queue.stream, seen)).rejects.toThrow('boom');
    expect(seen).toEqual([1, 2, 2]);
  });
});
