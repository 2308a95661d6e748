import { chunksToStream, getScenario, splitRandomly, stepsToSSE, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../server/src/listen-loopback.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import type { SSEMessage } from './sse-message.js';
import { decodeSSE } from './decode-sse.js';
import { readSSE, type SSEReadStep } from './read-sse.js';

async function collect(stream: ReadableStream<Uint8Array>, stopAt?: string) {
  const messages: SSEMessage[] = [];
  const end = await readSSE(stream, (message): SSEReadStep => {
    messages.push(message);
    return message.data === stopAt ? 'stop' : 'continue';
  });
  return { end, messages };
}

/** A stream that records whether it was cancelled, serving `chunks` one per pull. */
function watchedStream(chunks: readonly Uint8Array[]) {
  const seen = { cancelled: false, pulls: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[seen.pulls++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel: () => void (seen.cancelled = true),
  });
  return { stream, seen };
}

describe('readSSE', () => {
  it('hands over what decodeSSE yields, in order, however the bytes are cut', async () => {
    const bytes = toBytes(stepsToSSE(getScenario('completed-payload').steps) + 'data: café 🦅\r\rdata: tail\n\n');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer(), async (cuts, seed) => {
        const chunks = splitRandomly(bytes, cuts, seed);
        const expected: SSEMessage[] = [];
        for await (const message of decodeSSE(chunksToStream(chunks))) expected.push(message);
        expect(await collect(chunksToStream(chunks))).toEqual({ end: 'ended', messages: expected });
      }),
      { numRuns: 200 },
    );
  });

  it('stops at the message the handler stops at: none after it, even from the same chunk, and the body is cancelled', async () => {
    const { stream, seen } = watchedStream([toBytes('data: a\n\ndata: b\n\ndata: c\n\n'), toBytes('data: d\n\n')]);
    const { end, messages } = await collect(stream, 'b');
    expect(end).toBe('stopped');
    expect(messages.map((message) => message.data)).toEqual(['a', 'b']);
    expect(seen).toEqual({ cancelled: true, pulls: 1 });
    expect(stream.locked).toBe(false);
  });

  it('stops at the first or the last message of a chunk as well, handing over nothing after it', async () => {
    for (const [stopAt, seenData] of [
      ['a', ['a']],
      ['c', ['a', 'b', 'c']],
    ] as const) {
      const { stream, seen } = watchedStream([toBytes('data: a\n\ndata: b\n\ndata: c\n\n'), toBytes('data: d\n\n')]);
      const { end, messages } = await collect(stream, stopAt);
      expect(end).toBe('stopped');
      expect(messages.map((message) => message.data)).toEqual(seenData);
      expect(seen).toEqual({ cancelled: true, pulls: 1 });
    }
  });

  it('passes on what the handler throws, cancels the body and releases it', async () => {
    const { stream, seen } = watchedStream([toBytes('data: a\n\n'), toBytes('data: b\n\n')]);
    const boom = new Error('handler failed');
    await expect(
      readSSE(stream, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
  });

  it('hands over every message before an over-long line, then fails with a ProtocolError naming the limit', async () => {
    const messages: string[] = [];
    const reading = readSSE(
      chunksToStream([toBytes(`data: a\n\ndata: ${'x'.repeat(100)}\n\n`)]),
      (message) => {
        messages.push(message.data);
        return 'continue';
      },
      { maxMessageBytes: 64 },
    );
    await expect(reading).rejects.toThrow(ProtocolError);
    await expect(reading).rejects.toThrow(/maxMessageBytes \(64\)/);
    expect(messages).toEqual(['a']);
  });

  it('ignores an over-long line that follows the message the handler stopped at', async () => {
    const reading = collect(chunksToStream([toBytes(`data: a\n\ndata: ${'x'.repeat(100)}\n\n`)]), 'a');
    expect(await reading).toEqual({ end: 'stopped', messages: [expect.objectContaining({ data: 'a' })] });
  });

  it('reports every chunk to onBytes and every comment to onComment', async () => {
    const sizes: number[] = [];
    const comments: string[] = [];
    await readSSE(chunksToStream([toBytes(': hi\n\n'), toBytes('data: a\n\n')]), () => 'continue', {
      onBytes: (size) => sizes.push(size),
      onComment: (comment) => comments.push(comment),
    });
    expect(sizes).toEqual([6, 9]);
    expect(comments).toEqual(['hi']);
  });

  it('an aborted fetch mid-stream rejects with the abort and leaves the body unlocked', async () => {
    const server = await listenOnLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n'); // and then nothing: the stream stays open
    });
    try {
      const controller = new AbortController();
      const response = await fetch(server.url, { signal: controller.signal });
      const body = response.body!;
      const seen: string[] = [];
      const reading = readSSE(body, (message) => {
        seen.push(message.data);
        controller.abort();
        return 'continue';
      });
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
      expect(seen).toEqual(['first']);
      expect(body.locked).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('reads a real event stream to its end, one event per chunk, as a flushing server sends it', async () => {
    const bytes = stepsToSSE(getScenario('completed-text').steps);
    const frames = bytes.split(/(?<=\n\n)/);
    const server = await listenOnLoopback(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames) await new Promise<void>((resolve) => response.write(frame, () => resolve()));
      response.end();
    });
    try {
      const response = await fetch(server.url);
      const expected: SSEMessage[] = [];
      for await (const message of decodeSSE(chunksToStream([toBytes(bytes)]))) expected.push(message);
      expect(await collect(response.body!)).toEqual({ end: 'ended', messages: expected });
    } finally {
      await server.close();
    }
  });
});
