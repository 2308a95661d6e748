import { chunksToStream, scenarioEvents, scenarios, toBytes, type WireEvent } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { parseRunEvent, parseSSEMessage } from './parse-run-event.js';
import type { RunEvent } from './types.js';
import { decodeSSE } from '../sse/decode-sse.js';
import { encodeSSEComment } from '../sse/encode-sse.js';
import { encodeSSEEvent, toWireEvent } from './encode-run-event.js';

/** Every event of every scenario that parses, as a client holds it. */
const parsedEvents: RunEvent[] = scenarios.flatMap((scenario) =>
  scenarioEvents(scenario.steps).flatMap((wire) => {
    try {
      return [parseRunEvent(wire)];
    } catch {
      return [];
    }
  }),
);

describe('encodeSSEEvent', () => {
  it('writes what decodeSSE + parseSSEMessage read back, for every scenario event', async () => {
    const comments: string[] = [];
    const text = parsedEvents.map((event) => encodeSSEEvent(event) + encodeSSEComment()).join('');
    const decoded: RunEvent[] = [];
    for await (const message of decodeSSE(chunksToStream([toBytes(text)]), { onComment: (c) => comments.push(c) })) {
      decoded.push(parseSSEMessage(message));
    }
    expect(decoded).toEqual(parsedEvents);
    expect(comments).toHaveLength(parsedEvents.length);
    expect(new Set(comments)).toEqual(new Set(['keep-alive']));
  });

  it('writes an unknown event back exactly as the server sent it', () => {
    const unknown = parsedEvents.find((event) => event.type === 'unknown');
    if (unknown?.type !== 'unknown') throw new Error('the scenarios have an unknown event');
    expect(toWireEvent(unknown)).toBe(unknown.raw);
    expect(encodeSSEEvent(unknown)).toBe(
      `event: ${unknown.unknownType}\nid: ${unknown.seq}\ndata: ${JSON.stringify(unknown.raw)}\n\n`,
    );
  });

  it("writes an unsupported interaction with the server's kind", () => {
    const waiting = parsedEvents.find(
      (event) =>
        event.type === 'run.completed' &&
        event.output.status === 'WAITING' &&
        event.output.interaction.kind === 'unsupported',
    );
    expect(waiting).toBeDefined();
    const wire = toWireEvent(waiting as RunEvent) as { output: { interaction: Record<string, unknown> } };
    expect(wire.output.interaction.kind).toBe('signature');
    expect(wire.output.interaction).not.toHaveProperty('originalKind');
  });

  it('frames event name, id = String(seq) and one data line', () => {
    const delta = parsedEvents.find((event) => event.type === 'text.delta') as RunEvent;
    expect(encodeSSEEvent(delta)).toBe(`event: text.delta\nid: ${delta.seq}\ndata: ${JSON.stringify(delta)}\n\n`);
  });

  it('writes comments', () => {
    expect(encodeSSEComment()).toBe(': keep-alive\n\n');
    expect(encodeSSEComment('ping')).toBe(': ping\n\n');
  });

  it('writes an event object that was never parsed as it is, for every scenario event, malformed ones included', () => {
    const wireEvents: WireEvent[] = scenarios.flatMap((scenario) => scenarioEvents(scenario.steps));
    for (const wire of wireEvents) {
      expect(encodeSSEEvent(wire)).toBe(`event: ${wire.type}\nid: ${wire.seq}\ndata: ${JSON.stringify(wire)}\n\n`);
    }
    // Shapes that only a parsed event has are read loosely: an unparsed one is never reshaped, and never throws.
    const oddities = [
      { type: 'unknown', seq: 1, runId: 'run_1' },
      { type: 'run.completed', seq: 2, runId: 'run_1' },
      { type: 'run.completed', seq: 3, output: { status: 'WAITING', interaction: { kind: 'unsupported' } } },
      { type: 'run.completed', seq: 4, output: null },
    ];
    for (const wire of oddities) {
      expect(encodeSSEEvent(wire)).toBe(`event: ${wire.type}\nid: ${wire.seq}\ndata: ${JSON.stringify(wire)}\n\n`);
    }
  });
});
