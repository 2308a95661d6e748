import { encodeSSEComment, encodeSSEEvent } from '@kestrel/core';
import type { ScenarioStep } from './scenario.js';

/**
 * The SSE text of a step list up to its first fault (what one connection carries). Comments between events
 * exercise keep-alive handling.
 */
export function stepsToSSE(steps: readonly ScenarioStep[], options: { keepAlive?: boolean } = {}): string {
  let out = options.keepAlive ? encodeSSEComment() : '';
  for (const step of steps) {
    if (step.kind === 'event') out += encodeSSEEvent(step.event);
    else if (step.kind === 'raw') out += step.text;
    else if (step.kind !== 'pause') break;
  }
  return out;
}

/** UTF-8 bytes of a string, e.g. an SSE body from `stepsToSSE`, to cut with `splitAt`/`splitRandomly` or stream with `chunksToStream`. */
export function toBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Splits bytes at the given offsets (sorted, deduplicated, out-of-range ignored). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets)].filter((offset) => offset > 0 && offset < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** A small deterministic PRNG (mulberry32), so a random split can be reproduced from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits bytes at `count` random points, reproducibly from `seed`. Points may fall inside multi-byte characters. */
export function splitRandomly(bytes: Uint8Array, count: number, seed = 1): Uint8Array[] {
  const random = seededRandom(seed);
  return splitAt(
    bytes,
    Array.from({ length: count }, () => Math.floor(random() * bytes.length)),
  );
}

/** A `ReadableStream` that delivers the given chunks in order, then closes. */
export function chunksToStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** The SSE bytes of a step list as a stream, split at the given offsets or at `random` random points. */
export function stepsToStream(
  steps: readonly ScenarioStep[],
  split: { offsets?: readonly number[]; random?: number; seed?: number } = {},
): ReadableStream<Uint8Array> {
  const bytes = toBytes(stepsToSSE(steps));
  const chunks =
    split.random !== undefined ? splitRandomly(bytes, split.random, split.seed) : splitAt(bytes, split.offsets ?? []);
  return chunksToStream(chunks);
}
