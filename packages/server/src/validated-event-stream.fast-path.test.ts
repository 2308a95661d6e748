import { ProtocolError, encodeSSEEvent, parseSSEMessage, type RunEvent } from '@kestrel/core';
import { createSSEParser } from '@kestrel/core/internal';
import { chunksToStream, createEventFactory, splitRandomly, toBytes, type WireEvent } from '@kestrel/testing';
import fc from 'fast-check';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { proxyHarness } from './proxy-harness.test-helper.js';
import { validatedEventStream } from './validated-event-stream.js';

/*
 * The relay reads the common events as the kit frames them in place (fastAcceptMessages) and everything else with
 * the parser and parseSSEMessage. Whichever way a message goes, what the browser receives and what is reported
 * must be what the full path alone gives: these tests mix both kinds of message and cut the bytes anywhere.
 */

async function relay(chunks: readonly Uint8Array[], options: { maxMessageBytes?: number } = {}) {
  const errors: ProtocolError[] = [];
  const heard: RunEvent[] = [];
  const stream = validatedEventStream(chunksToStream(chunks), {
    onProtocolError: (error) => errors.push(error),
    onCancel: () => undefined,
    onFirstEvent: async (event) => void heard.push(event),
    ...options,
  });
  const text = new TextDecoder().decode(await new Response(stream).arrayBuffer());
  return { text, errors, heard };
}

/** What the full path alone makes of `text`: what it forwards, and the reason of the error it reports, if any. */
function fullPath(text: string): { forwarded: string; error: string | undefined } {
  let boundary = 0;
  let error: string | undefined;
  let settled = false;
  try {
    createSSEParser(
      (message) => {
        if (error !== undefined) return;
        try {
          const event = parseSSEMessage(message);
          if (settled) error = 'event after run.completed';
          settled ||= event.type === 'run.completed';
        } catch (cause) {
          if (!(cause instanceof ProtocolError)) throw cause;
          error = cause.reason;
        }
      },
      undefined,
      undefined,
      (index) => {
        boundary = index;
        if (error !== undefined) throw error;
      },
    )(text);
  } catch (stop) {
    if (stop !== error) throw stop;
  }
  return { forwarded: text.slice(0, boundary), error };
}

const e = createEventFactory({ runId: 'run_1' });
/** Events the fast path reads when the kit frames them, escapes and non-ASCII text included. */
const commonEvent = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }).map((delta) => e.text(delta)),
  fc.constantFrom('say "hi"\n', 'naïve 🦅', '\\').map((delta) => e.reasoning(delta)),
  fc.constant(null).map(() => e.progress('Reading', 0.5)),
  fc.constant(null).map(() => e.log('info', 'step')),
  fc.constant(null).map(() => e.toolStarted('call_1', 'lookup', { q: 'item' })),
  fc.constant(null).map(() => e.toolCompleted('call_1', { rows: 3 })),
);
/** How one event reaches the relay: as the kit frames it, or framed in ways only the parser reads. */
const framing = fc.constantFrom('kit', 'kit', 'kit', 'kit', 'id first', 'crlf', 'comment before', 'no space');
function frame(event: WireEvent, how: string): string {
  const kit = encodeSSEEvent(event);
  switch (how) {
    case 'id first':
      return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    case 'crlf':
      return kit.replaceAll('\n', '\r\n');
    case 'comment before':
      return `: keep-alive\n\n${kit}`;
    case 'no space':
      return kit.replaceAll(': ', ':');
    default:
      return kit;
  }
}
/** Messages the full path refuses; the first two are framed as the kit frames a valid event. */
const invalid = fc.constantFrom(
  (seq: number) =>
    `event: text.delta\nid: ${seq}\ndata: {"type":"text.delta","runId":"run_1","seq":${seq},"sessionId":"ses_root","delta":42}\n\n`,
  (seq: number) =>
    `event: log\nid: ${seq}\ndata: {"type":"text.delta","runId":"run_1","seq":${seq},"sessionId":"ses_root","delta":"a"}\n\n`,
  (seq: number) =>
    `event: text.delta\nid: ${seq + 1}\ndata: {"type":"text.delta","runId":"run_1","seq":${seq},"sessionId":"ses_root","delta":"a"}\n\n`,
  (seq: number) => `event: text.delta\nid: ${seq}\ndata: {"type":"text.delta","runId":"run_1","seq":${seq},\n\n`,
);

const run = fc
  .record({
    middle: fc.array(fc.tuple(commonEvent, framing), { maxLength: 30 }),
    invalidAt: fc.option(fc.tuple(fc.nat(), invalid)),
    completed: fc.boolean(),
    lateEvent: fc.boolean(),
  })
  .map(({ middle, invalidAt, completed, lateEvent }) => {
    const messages = [
      frame(e.started(1), 'kit'),
      frame(e.received(), 'kit'),
      ...middle.map(([event, how]) => frame(event, how)),
    ];
    if (invalidAt !== null) {
      const [at, make] = invalidAt;
      messages.splice(2 + (at % (middle.length + 1)), 0, make(900));
    }
    if (completed)
      messages.push(
        frame(e.turnEnd('completed'), 'kit'),
        frame(e.completed({ status: 'COMPLETED', assistantText: 'Done.' }), 'kit'),
      );
    if (lateEvent) messages.push(frame(e.text('late'), 'kit'));
    return messages.join('');
  });

describe('validatedEventStream: common events read in place, the rest parsed', () => {
  it('forwards and reports exactly what the full path does, the bytes cut anywhere, mixed framings included', async () => {
    await fc.assert(
      fc.asyncProperty(run, fc.integer({ min: 1, max: 40 }), fc.integer(), async (text, count, seed) => {
        const expected = fullPath(text);
        const { text: relayed, errors, heard } = await relay(splitRandomly(toBytes(text), count, seed));
        expect(relayed).toBe(expected.forwarded);
        expect(errors.map((error) => error.reason)).toEqual(expected.error === undefined ? [] : [expected.error]);
        // Heard whenever the first event is valid, even when its chunk also holds the invalid message that ends it.
        if (expected.error === undefined) expect(heard.map((event) => event.type)).toEqual(['run.started']);
        else expect(heard.map((event) => event.type)).toEqual(heard.length === 0 ? [] : ['run.started']);
      }),
      { numRuns: 300 },
    );
  });

  it('forwards the LF of a CRLF that a chunk cut from its CR, when the stream ends just after it (a property counterexample)', async () => {
    const text = encodeSSEEvent(e.started(1)) + encodeSSEEvent(e.received()) + frame(e.reasoning('say "hi"\n'), 'crlf');
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    const bytes = toBytes(text);
    const { text: relayed, errors } = await relay([
      bytes.subarray(0, bytes.length - 1),
      bytes.subarray(bytes.length - 1),
    ]);
    expect(errors).toEqual([]);
    expect(relayed).toBe(text);
  });

  it('reads the common kinds without JSON.parse: a long run of them parses a few events, not one per event', async () => {
    const events = [e.started(1), e.received()];
    for (let i = 0; i < 600; i++) events.push(i % 3 === 0 ? e.reasoning(`think ${i} `) : e.text(`word ${i} `));
    events.push(e.turnEnd('completed'), e.idle(), e.completed({ status: 'COMPLETED', assistantText: 'Done.' }));
    const text = events.map((event) => encodeSSEEvent(event)).join('');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const { text: relayed, errors } = await relay(splitRandomly(toBytes(text), 8, 3));
      expect(errors).toEqual([]);
      expect(relayed).toBe(text);
      // The first event (for onFirstEvent), turn/end, run.completed and the message each cut chunk starts with.
      expect(parse.mock.calls.length).toBeLessThanOrEqual(12);
    } finally {
      parse.mockRestore();
    }
  });

  it('refuses a common event past maxMessageBytes as the parser does, forwarding the messages before it', async () => {
    const first = encodeSSEEvent(e.started(1)) + encodeSSEEvent(e.received());
    const huge = encodeSSEEvent(e.text('x'.repeat(2000)));
    const { text, errors } = await relay([toBytes(first + huge + encodeSSEEvent(e.text('after')))], {
      maxMessageBytes: 1024,
    });
    expect(text).toBe(first);
    expect(errors[0]?.message).toMatch(/over maxMessageBytes \(1024\)/);
  });

  it('reads a run of small events longer than maxMessageBytes in place, and refuses only the one over it', async () => {
    const first = encodeSSEEvent(e.started(1)) + encodeSSEEvent(e.received());
    let small = '';
    for (let i = 0; i < 100; i++) small += encodeSSEEvent(e.text(`word ${i} `));
    expect(small.length).toBeGreaterThan(8 * 1024);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const whole = await relay([toBytes(first + small)], { maxMessageBytes: 1024 });
      expect(whole.errors).toEqual([]);
      expect(whole.text).toBe(first + small);
      // Still in place, a message at a time, when a run of them is over the limit: only the first event is parsed.
      expect(parse.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      parse.mockRestore();
    }
    const huge = encodeSSEEvent(e.text('x'.repeat(2000)));
    const cut = await relay([toBytes(first + small + huge + small)], { maxMessageBytes: 1024 });
    expect(cut.text).toBe(first + small);
    expect(cut.errors[0]?.message).toMatch(/over maxMessageBytes \(1024\)/);
  });

  it('refuses a common event after run.completed, naming its seq', async () => {
    const settled = [e.started(1), e.received(), e.text('a'), e.completed({ status: 'COMPLETED', assistantText: 'a' })];
    const late = e.text('late');
    const text = settled.map((event) => encodeSSEEvent(event)).join('') + encodeSSEEvent(late);
    const { text: relayed, errors } = await relay([toBytes(text)]);
    expect(relayed).toBe(text);
    expect(errors[0]?.message).toMatch(/after run.completed/);
    expect(errors[0]?.seq).toBe(late.seq);
  });
});

describe('createKestrelProxy: a long stream of common events on loopback', () => {
  const { setup } = proxyHarness();
  const sseHead = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });

  it('forwards the upstream bytes up to and with the first invalid event, reporting its seq and field', async () => {
    const f = createEventFactory({ runId: 'run_loop' });
    const before = [f.started(1), f.received()];
    for (let i = 0; i < 3000; i++) before.push(i % 2 === 0 ? f.text(`word ${i} `) : f.progress('Reading', i / 3000));
    const good = before.map((event) => encodeSSEEvent(event)).join('');
    const bad = encodeSSEEvent({ ...f.text('x'), delta: 42 } as never);
    const after = encodeSSEEvent(f.text('never forwarded'));
    const body = toBytes(good + bad + after);
    const { proxy, protocolErrors } = await setup((_request, res) => {
      sseHead(res);
      // Written in pieces that cut messages, as a busy upstream's writes do.
      for (let at = 0; at < body.length; at += 16_000) res.write(body.subarray(at, at + 16_000));
      res.end();
    });
    const response = await fetch(`${proxy.url}/v1/runs/run_loop/events`, { headers: { accept: 'text/event-stream' } });
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe(good + bad);
    expect(protocolErrors).toHaveLength(1);
    expect(protocolErrors[0]?.seq).toBe(before.length + 1);
    expect(protocolErrors[0]?.path).toEqual(['delta']);
  });
});
