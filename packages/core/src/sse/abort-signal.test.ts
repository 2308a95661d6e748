import { toBytes } from '@kestrel/testing';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { decodeSSE, type DecodeSSEOptions } from './decode-sse.js';
import { readSSE } from './read-sse.js';

/*
 * The `signal` option of readSSE and decodeSSE: an abort ends the read even when the body never ends on it (a custom
 * fetch, a mock, a hand-made stream). Every stream here sends its first message and then nothing, ever, and never
 * errors: without the signal, a read of it would wait for good.
 */

/** A body that sends `first` and then stays open, recording whether it was cancelled (and why). */
function silentAfter(first: string) {
  const seen: { cancelled: boolean; reason: unknown } = { cancelled: false, reason: undefined };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(toBytes(first));
    },
    cancel(reason) {
      seen.cancelled = true;
      seen.reason = reason;
    },
  });
  return { stream, seen };
}

type Read = (
  stream: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
  options: DecodeSSEOptions,
) => Promise<unknown>;

const readers: [string, Read][] = [
  ['readSSE', (stream, onData, options) => readSSE(stream, (message) => (onData(message.data), 'continue'), options)],
  [
    'decodeSSE',
    async (stream, onData, options) => {
      for await (const message of decodeSSE(stream, options)) onData(message.data);
    },
  ],
];

describe.each(readers)('%s with a signal', (name, read) => {
  it('an abort mid-read cancels a body that ignores it and rejects with the reason, after the messages before it', async () => {
    const { stream, seen } = silentAfter('data: first\n\n');
    const controller = new AbortController();
    const data: string[] = [];
    const reading = read(stream, (value) => data.push(value), { signal: controller.signal });
    await expect.poll(() => data).toEqual(['first']);
    const reason = new Error('heartbeat');
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
  });

  it('an abort from the message handler hands over the rest of that chunk, then reads no more of the body', async () => {
    const { stream, seen } = silentAfter('data: first\n\ndata: second\n\n');
    const controller = new AbortController();
    const data: string[] = [];
    const reading = read(
      stream,
      (value) => {
        data.push(value);
        controller.abort();
      },
      { signal: controller.signal },
    );
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.cancelled).toBe(true);
    expect(data).toEqual(['first', 'second']);
  });

  it('one long-lived signal serves many reads: each read removes its listener when it ends', async () => {
    const signal = new AbortController().signal;
    for (let index = 0; index < 3; index++) {
      const stream = new ReadableStream<Uint8Array>({
        start(body) {
          body.enqueue(toBytes('data: one\n\n'));
          body.close();
        },
      });
      await read(stream, () => undefined, { signal });
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('a signal aborted before the read starts hands over nothing and cancels the body', async () => {
    const { stream, seen } = silentAfter('data: first\n\n');
    const data: string[] = [];
    await expect(read(stream, (value) => data.push(value), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(data).toEqual([]);
    expect(seen.cancelled).toBe(true);
  });

  it('an abort after the body ended changes nothing', async () => {
    const controller = new AbortController();
    const data: string[] = [];
    const end = await read(
      new ReadableStream({
        start(stream) {
          stream.enqueue(toBytes('data: only\n\n'));
          stream.close();
        },
      }),
      (value) => data.push(value),
      { signal: controller.signal },
    );
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(data).toEqual(['only']);
    expect(end).toBe(name === 'readSSE' ? 'ended' : undefined);
  });
});
