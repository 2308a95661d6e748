import { encodeSSEEvent } from '@kestrel/core';
import { createEventFactory, seededRandom, type WireEvent } from '@kestrel/testing';

/**
 * What the body of the stream is made of:
 * - `text`: one-word text deltas, a progress event every `progressEvery` and a tool call every `toolEvery`.
 * - `mixed`: about 55% text deltas, 25% reasoning deltas and 20% tool calls, progress and logs, drawn at random
 *   (seeded) per event, as a reasoning model with tools streams.
 */
export type StreamMix = 'text' | 'mixed';

/**
 * How the bytes are cut: `bytes` at `chunkBytes` (cuts anywhere, inside frames too), or `per-event`, one event per
 * chunk, as a browser behind the kit's proxy or a server flushing each event receives them.
 */
export type StreamChunking = 'bytes' | 'per-event';

export interface SyntheticStreamOptions {
  /** How many events in the body: `text.delta` events for `mix: 'text'`, events of every kind for `'mixed'`. */
  readonly deltas: number;
  /** Default `text`. */
  readonly mix?: StreamMix;
  /** Default `bytes`. */
  readonly chunking?: StreamChunking;
  /** Size of the byte chunks the stream is cut into, as a network read would deliver them. Default 64 KiB. */
  readonly chunkBytes?: number;
  /** One `progress` event every this many deltas. Default 1 000. */
  readonly progressEvery?: number;
  /** One tool call (started, then completed 100 deltas later) every this many deltas. Default 2 000. */
  readonly toolEvery?: number;
}

export interface SyntheticStream {
  /** The SSE bytes, cut at `chunkBytes` (cuts fall anywhere, inside frames and multi-byte characters too). */
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  /** Every event, `run.completed` included. */
  readonly events: number;
  readonly deltas: number;
  /** The assistant text: all text deltas joined. */
  readonly textLength: number;
  /** The `text.delta` strings in order (for the render bench, which feeds the same text to useChat). */
  readonly deltaTexts: readonly string[];
}

// Mostly ASCII, with a few multi-byte words so UTF-8 decoding across chunk cuts is exercised.
const WORDS = [
  'the',
  'kestrel',
  'hovers',
  'over',
  'a',
  'field',
  'while',
  'streaming',
  'tokens',
  'arrive',
  'quickly',
  'and',
  'invoice',
  'total',
  'café',
  'naïve',
  'résumé',
  '🦅',
  'data',
  'model',
];

/**
 * A long COMPLETED run as SSE bytes, written with the shared event factory and framing of `@kestrel/testing`.
 * With `mix: 'text'`, `deltas` text deltas of one word each (about 125 bytes per frame, most of it the protocol's envelope), with progress events and tool calls
 * interleaved, then turn/end, agent.idle and run.completed carrying the whole text.
 */
export function createSyntheticStream(options: SyntheticStreamOptions): SyntheticStream {
  const {
    deltas,
    mix = 'text',
    chunking = 'bytes',
    chunkBytes = 64 * 1024,
    progressEvery = 1_000,
    toolEvery = 2_000,
  } = options;
  const e = createEventFactory({ runId: 'run_bench', sessionId: 'ses_bench' });
  const random = seededRandom(8);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const deltaTexts: string[] = [];
  let pending = '';
  let bytes = 0;
  let events = 0;
  let textLength = 0;
  const write = (event: WireEvent) => {
    events += 1;
    if (chunking === 'per-event') {
      const chunk = encoder.encode(encodeSSEEvent(event));
      chunks.push(chunk);
      bytes += chunk.length;
      return;
    }
    pending += encodeSSEEvent(event);
    // Flush in large pieces, then cut exactly at chunkBytes so frames straddle chunks as on a real socket.
    if (pending.length >= chunkBytes * 4) flush(false);
  };
  let carry = new Uint8Array(0);
  const flush = (final: boolean) => {
    if (chunking === 'per-event') return;
    const encoded = encoder.encode(pending);
    pending = '';
    const all = new Uint8Array(carry.length + encoded.length);
    all.set(carry);
    all.set(encoded, carry.length);
    let start = 0;
    while (all.length - start >= chunkBytes) {
      chunks.push(all.slice(start, start + chunkBytes));
      start += chunkBytes;
    }
    carry = all.slice(start);
    if (final && carry.length > 0) {
      chunks.push(carry);
      carry = new Uint8Array(0);
    }
    bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0) + carry.length;
  };

  const text: string[] = [];
  write(e.started());
  write(e.received());
  const word = () => `${WORDS[Math.floor(random() * WORDS.length)]} `;
  const writeText = () => {
    // One word per delta, about what a model's token stream carries.
    const delta = word();
    deltaTexts.push(delta);
    text.push(delta);
    textLength += delta.length;
    write(e.text(delta));
  };
  if (mix === 'text') {
    for (let i = 0; i < deltas; i++) {
      writeText();
      if ((i + 1) % progressEvery === 0) write(e.progress(`Writing part ${(i + 1) / progressEvery}`, (i + 1) / deltas));
      if (i % toolEvery === toolEvery / 2) write(e.toolStarted(`call_${i}`, 'search', { query: `part ${i}` }));
      if (i % toolEvery === toolEvery / 2 + 100) write(e.toolCompleted(`call_${i - 100}`, { hits: i % 7 }));
    }
  } else {
    let openCall: string | null = null;
    for (let i = 0; i < deltas; i++) {
      const draw = random();
      if (draw < 0.55) writeText();
      else if (draw < 0.8) write(e.reasoning(word()));
      else if (draw < 0.82) {
        // Calls open and close in turn: about 2% of events, a call every hundred events or so.
        if (openCall === null) {
          openCall = `call_${i}`;
          write(e.toolStarted(openCall, 'search', { query: `part ${i}` }));
        } else {
          write(e.toolCompleted(openCall, { hits: i % 7, snippet: word() }));
          openCall = null;
        }
      } else if (draw < 0.91) write(e.progress(`Step ${i}`, i / deltas));
      else write(e.log(i % 2 === 0 ? 'info' : 'debug', `step ${i}: ${word()}`));
    }
    if (openCall !== null) write(e.toolCompleted(openCall, { hits: 0 }));
  }
  write(e.turnEnd('completed'));
  write(e.idle());
  write(e.completed({ status: 'COMPLETED', assistantText: text.join('') }));
  flush(true);
  return { chunks, bytes, events, deltas, textLength, deltaTexts };
}
