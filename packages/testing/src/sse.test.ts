import { decodeSSE, encodeSSEEvent, parseRunEvent, parseSSEMessage, type RunEvent } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { scenarioEvents, type ScenarioStep } from './scenario.js';
import { getScenario, scenarios } from './scenarios.js';
import { chunksToStream, seededRandom, splitAt, splitRandomly, stepsToSSE, stepsToStream, toBytes } from './sse.js';

async function readEvents(stream: ReadableStream<Uint8Array>, comments?: string[]): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const message of decodeSSE(stream, { onComment: (comment) => comments?.push(comment) }))
    events.push(parseSSEMessage(message));
  return events;
}

/** The events one connection carries: those before the first fault. */
function firstConnection(steps: readonly ScenarioStep[]) {
  const fault = steps.findIndex((step) => step.kind !== 'event');
  return scenarioEvents(fault === -1 ? steps : steps.slice(0, fault));
}

const valid = scenarios.filter((scenario) => scenario.group !== 'protocol');

describe('SSE helpers round-trip through decodeSSE + parseSSEMessage', () => {
  it.each(valid.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
    const expected = firstConnection(scenario.steps).map((event) => parseRunEvent(event));
    expect(expected.length).toBeGreaterThan(0);
    const comments: string[] = [];
    const text = stepsToSSE(scenario.steps, { keepAlive: true });
    expect(await readEvents(chunksToStream([toBytes(text)]), comments)).toEqual(expected);
    expect(comments).toEqual(['keep-alive']);
    for (const seed of [1, 2, 3])
      expect(await readEvents(stepsToStream(scenario.steps, { random: 12, seed }))).toEqual(expected);
  });

  it('writes raw steps verbatim, so the mismatched name reaches the parser', async () => {
    const steps = getScenario('event-name-mismatch').steps;
    const raw = steps.find((step) => step.kind === 'raw');
    expect(stepsToSSE(steps).endsWith(raw?.kind === 'raw' ? raw.text : '?')).toBe(true);
    await expect(readEvents(stepsToStream(steps))).rejects.toThrow(/disagrees with data.type/);
  });

  it('stops at the first fault: one connection', () => {
    const steps = getScenario('dropped-mid-stream').steps;
    const text = stepsToSSE(steps);
    const count = text.split('\n\n').filter((block) => block !== '').length;
    expect(count).toBe(firstConnection(steps).length);
    expect(count).toBeLessThan(scenarioEvents(steps).length);
  });

  it('encodeSSEEvent frames name, id = String(seq) and the JSON', () => {
    const event = scenarioEvents(getScenario('completed-text').steps)[0];
    if (event === undefined) throw new Error('no event');
    expect(encodeSSEEvent(event)).toBe(`event: run.started\nid: 1\ndata: ${JSON.stringify(event)}\n\n`);
  });
});

describe('byte splitting', () => {
  const bytes = toBytes('naïve 東京 🚀');

  it('toBytes encodes UTF-8', () => {
    expect(bytes.length).toBe(new TextEncoder().encode('naïve 東京 🚀').length);
    expect(new TextDecoder().decode(bytes)).toBe('naïve 東京 🚀');
  });

  it('splitAt cuts at sorted, distinct, in-range offsets and loses nothing', () => {
    const chunks = splitAt(bytes, [9, 3, 3, 0, -4, bytes.length, 99]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([3, 6, bytes.length - 9]);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes));
    expect(splitAt(bytes, [])).toEqual([bytes]);
  });

  it('splitRandomly is reproducible from its seed, and can cut inside a character', () => {
    expect(splitRandomly(bytes, 5, 7)).toEqual(splitRandomly(bytes, 5, 7));
    const insideChar = Array.from({ length: 50 }, (_, seed) => splitRandomly(bytes, 4, seed)).some((chunks) =>
      chunks.some((chunk) => (chunk[0] ?? 0) >= 0x80 && (chunk[0] ?? 0) < 0xc0),
    );
    expect(insideChar).toBe(true);
    for (let seed = 0; seed < 20; seed++)
      expect(Buffer.concat(splitRandomly(bytes, 6, seed))).toEqual(Buffer.from(bytes));
  });

  it('seededRandom gives the same numbers in [0, 1) for the same seed', () => {
    const a = seededRandom(3);
    const b = seededRandom(3);
    const values = Array.from({ length: 100 }, () => a());
    expect(values).toEqual(Array.from({ length: 100 }, () => b()));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });

  it('chunksToStream delivers the chunks in order, then closes', async () => {
    const chunks = splitAt(bytes, [2, 5]);
    const seen: Uint8Array[] = [];
    const reader = chunksToStream(chunks).getReader();
    for (let result = await reader.read(); !result.done; result = await reader.read()) seen.push(result.value);
    expect(seen).toEqual(chunks);
  });
});

describe('stepsToSSE and pauses', () => {
  it('a pause (recorded timing) is not a fault: the connection carries the events after it', () => {
    const steps = getScenario('completed-text').steps.flatMap((step): ScenarioStep[] => [
      step,
      { kind: 'pause', ms: 5 },
    ]);
    expect(stepsToSSE(steps)).toBe(stepsToSSE(getScenario('completed-text').steps));
  });
});
