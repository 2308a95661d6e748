import type { ProtocolError, RunEvent } from '@kestrel/core';
import { chunksToStream, createEventFactory, splitRandomly, toBytes } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatedEventStream } from './validated-event-stream.js';

const frame = (event: object, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`;

function validRun(deltas: number): string {
  const e = createEventFactory({ runId: 'run_1' });
  const events = [e.started(1), e.received(), ...Array.from({ length: deltas }, (_, i) => e.text(`word ${i} `))];
  events.push(e.turnEnd('completed'), e.idle(), e.completed({ status: 'COMPLETED', assistantText: 'done' }));
  return events.map((event) => frame(event, event.seq)).join('');
}

async function relay(chunks: readonly Uint8Array[], maxMessageBytes?: number) {
  const errors: ProtocolError[] = [];
  let cancelled = 0;
  const stream = validatedEventStream(chunksToStream(chunks), {
    onProtocolError: (error) => errors.push(error),
    onCancel: () => cancelled++,
    ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
  });
  const out: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.push(value);
  }
  const decoder = new TextDecoder();
  return {
    out,
    texts: out.map((bytes) => decoder.decode(bytes)),
    text: out.map((b) => decoder.decode(b)).join(''),
    errors,
    cancelled,
  };
}

const joined = (texts: readonly string[]) => texts.join('');

describe('validatedEventStream: relayed a chunk at a time', () => {
  it("forwards the upstream's batching: one write per upstream chunk of whole messages, its exact bytes", async () => {
    const text = validRun(300);
    const lines = text.split(/(?<=\n\n)/);
    // Three upstream chunks of many whole messages each.
    const chunks = [lines.slice(0, 100), lines.slice(100, 200), lines.slice(200)].map((part) => toBytes(part.join('')));
    const { out, errors } = await relay(chunks);
    expect(errors).toEqual([]);
    expect(out).toHaveLength(3);
    out.forEach((bytes, i) => expect(bytes).toEqual(chunks[i]));
  });

  it('holds a message a chunk ends inside until the chunk that completes it, and never forwards half of one', async () => {
    const text = validRun(50);
    const chunks = splitRandomly(toBytes(text), 40, 7);
    const { texts, errors } = await relay(chunks);
    expect(errors).toEqual([]);
    expect(joined(texts)).toBe(text);
    for (const part of texts) expect(part.endsWith('\n\n')).toBe(true);
    expect(texts.length).toBeLessThanOrEqual(chunks.length);
  });

  it('forwards what it received, exactly, however the bytes are cut (multi-byte characters included)', async () => {
    const e = createEventFactory();
    const text = [e.started(1), e.received(), e.text('naïve café 🦅 '), e.reasoning('日本語 '), e.text('ok')]
      .map((event) => frame(event, event.seq))
      .join(': keep-alive\n\n');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 60 }), fc.integer(), async (count, seed) => {
        const { text: relayed, errors } = await relay(splitRandomly(toBytes(text), count, seed));
        expect(errors).toEqual([]);
        expect(relayed).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("forwards the upstream's own bytes however they are cut, a byte that is not UTF-8 included, never re-encoded", async () => {
    const e = createEventFactory();
    // 0xff inside a delta: the proxy and the browser both read it as U+FFFD, but what goes out is Kestrel's byte.
    const text = [e.started(1), e.received(), e.text('a?b'), e.text('ok')].map((event) => frame(event, event.seq));
    const bytes = toBytes(text.join(''));
    bytes[bytes.indexOf(0x3f)] = 0xff;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer(), async (count, seed) => {
        const { out, errors } = await relay(splitRandomly(bytes, count, seed));
        expect(errors).toEqual([]);
        expect(new Uint8Array(out.flatMap((chunk) => [...chunk]))).toEqual(bytes);
      }),
      { numRuns: 40 },
    );
  });

  it('reads a character cut between chunks as the browser does, wherever the cut falls, a broken one included', async () => {
    const runId = 'run_🦅é日';
    const e = createEventFactory({ runId });
    const text = [e.started(1), e.received(), e.text('ok')].map((event) => frame(event, event.seq)).join('');
    // A lone lead byte in a delta: U+FFFD for the proxy and the browser alike, and the bytes around it unchanged.
    const broken = toBytes(frame(e.text('a?b'), 4));
    broken[broken.indexOf(0x3f)] = 0xe2;
    const bytes = new Uint8Array([...toBytes(text), ...broken]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 60 }), fc.integer(), async (count, seed) => {
        const heard: RunEvent[] = [];
        const stream = validatedEventStream(chunksToStream(splitRandomly(bytes, count, seed)), {
          onProtocolError: (error) => expect.fail(error.message),
          onCancel: () => undefined,
          onFirstEvent: async (event) => void heard.push(event),
        });
        const relayed = new Uint8Array(await new Response(stream).arrayBuffer());
        expect(relayed).toEqual(bytes);
        expect(heard.map((event) => event.runId)).toEqual([runId]);
      }),
      { numRuns: 60 },
    );
  });

  it('awaits onFirstEvent before anything goes out, even when the first chunk also breaks the protocol', async () => {
    const e = createEventFactory({ runId: 'run_first' });
    const started = frame(e.started(1), 1);
    const bad = `event: text.delta\nid: 2\ndata: ${JSON.stringify({ ...e.text('x'), runId: 7 })}\n\n`;
    const order: string[] = [];
    let release: () => void = () => undefined;
    const stream = validatedEventStream(chunksToStream([toBytes(started + bad)]), {
      onProtocolError: () => order.push('protocol error'),
      onCancel: () => undefined,
      onFirstEvent: (event) => {
        order.push(`heard ${event.runId}`);
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const reader = stream.getReader();
    const first = reader.read().then((read) => {
      order.push('forwarded');
      return read;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['heard run_first']);
    release();
    expect(new TextDecoder().decode((await first).value)).toContain('run.started');
    expect(order).toEqual(['heard run_first', 'protocol error', 'forwarded']);
  });

  it('forwards a keep-alive comment between messages at once, so the browser hears the sign of life', async () => {
    const e = createEventFactory();
    const first = frame(e.started(1), 1);
    const { texts } = await relay([toBytes(first), toBytes(': keep-alive\n\n'), toBytes(frame(e.received(), 2))]);
    expect(texts).toEqual([first, ': keep-alive\n\n', expect.stringContaining('message.received')]);
  });

  it('ends after the first invalid message of a chunk, forwarding it whole as the last one and nothing after it', async () => {
    const e = createEventFactory();
    const good = [e.started(1), e.received()].map((event) => frame(event, event.seq)).join('');
    const bad = `id: 3\nevent: text.delta\ndata: ${JSON.stringify({ type: 'text.delta', runId: 'run_1', seq: 3, sessionId: 'ses_root', delta: 42 })}\n\n`;
    const after = frame(e.text('never seen'), 4);
    const { text, errors, cancelled } = await relay([toBytes(good + bad + after)]);
    expect(text).toBe(good + bad);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/delta/);
    expect(errors[0]?.seq).toBe(3);
    expect(cancelled).toBe(0);
  });

  it('refuses an event after run.completed, naming its seq', async () => {
    const text = validRun(2);
    const e = createEventFactory({ firstSeq: 100 });
    const extra = frame(e.text('late'), 100);
    const { text: relayed, errors } = await relay([toBytes(text), toBytes(extra)]);
    expect(relayed).toBe(text + extra);
    expect(errors[0]?.message).toMatch(/after run.completed/);
    expect(errors[0]?.seq).toBe(100);
  });

  it('withholds a block with an id but no data (an EventSource would resume past events it never got), and ends there', async () => {
    const e = createEventFactory();
    const good = [e.started(1), e.received()].map((event) => frame(event, event.seq)).join('');
    const after = frame(e.text('never seen'), 3);
    for (const [chunks, forwarded] of [
      [[good + 'id: 999\n\n' + after], good], // in one chunk
      [[good + ': note\nid: 9', '99\n\n' + after], good + ': note\n'], // begun in one chunk, after a comment
      [[good, 'id: 999\n\n' + after], good], // at the start of a chunk
    ] as const) {
      const { text, errors } = await relay(chunks.map(toBytes));
      expect(text).toBe(forwarded);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toMatch(/id "999" but no data/);
    }
  });

  it('passes a retry: or event: block without data (standard framing that moves no id), like a comment', async () => {
    const e = createEventFactory();
    const run = [e.started(1), e.received()].map((event) => frame(event, event.seq));
    const text = run[0] + 'retry: 3000\n\n' + 'event: ping\n\n' + run[1];
    const { text: relayed, errors } = await relay([toBytes(text)]);
    expect(errors).toEqual([]);
    expect(relayed).toBe(text);
  });

  it('bounds what it holds: a message that never ends (fields without data) is refused past maxMessageBytes', async () => {
    const idLines = Array.from({ length: 200 }, (_, i) => toBytes(`id: ${i}\n`));
    const { text, errors } = await relay(idLines, 1024);
    expect(text).toBe('');
    expect(errors[0]?.message).toMatch(/over maxMessageBytes \(1024\)/);
  });

  it('forwards the whole messages before an oversized one, and none of the oversized one', async () => {
    const e = createEventFactory();
    const good = frame(e.started(1), 1);
    const huge = `data: ${'x'.repeat(5000)}\n\n`;
    const { text, errors } = await relay([toBytes(good + huge)], 1024);
    expect(text).toBe(good);
    expect(errors[0]?.message).toMatch(/over maxMessageBytes/);
  });

  it('drops a message cut off by a clean upstream end instead of forwarding half of it', async () => {
    const e = createEventFactory();
    const good = frame(e.started(1), 1);
    const { text, errors } = await relay([toBytes(`${good}id: 2\nevent: message.received\ndata: {"ty`)]);
    expect(text).toBe(good);
    expect(errors).toEqual([]);
  });
});
