import { createRunClient, createTimerFrameScheduler, type RunState } from '@kestrel/core';
import { chunksToStream } from '@kestrel/testing';
import { check, log, MB, writePartResult } from './harness.js';
import { createSyntheticStream } from './synthetic-stream.js';

/*
 * Part 3 (run with --expose-gc): the heap a settled run keeps, through the real run client (fetch → decode →
 * parse → reduce → store), after streams of about 1, 5 and 10 MiB. Each size runs in its own process
 * (`BENCH_MEMORY_MIB`), so one measurement's garbage cannot blur the next.
 */
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const mib = Number(process.env.BENCH_MEMORY_MIB ?? 10);
// About 7,670 one-word deltas per MiB of SSE with this generator (see synthetic-stream.ts).
const stream = createSyntheticStream({ deltas: Math.round(mib * 7_670) });

function heapAfterGC(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

function clientFor(chunks: readonly Uint8Array[]) {
  return createRunClient({
    baseUrl: 'http://bench.invalid',
    scheduler: createTimerFrameScheduler(16),
    // The bytes are already in memory (outside the JS heap, as ArrayBuffers): serve them as a streaming body.
    fetch: async () => new Response(chunksToStream(chunks), { headers: { 'content-type': 'text/event-stream' } }),
  });
}

// A small run first: compiling the code paths puts bytecode on the heap, a fixed cost that is not the run's.
await clientFor(createSyntheticStream({ deltas: 2_000 }).chunks).start({ input: 'warm up' }).result;

const before = heapAfterGC();
const handle = clientFor(stream.chunks).start({ input: 'Write a very long answer' });
await handle.result;
const state: RunState = handle.getState();
check(state.phase === 'settled' && state.events.length === stream.events, 'the run settled with every event');
const after = heapAfterGC();
const retained = after - before;
// Keep the handle (and so the state) alive through the measurement, as an app showing the run would.
check(handle.getState() === state, 'the state is still held');

const result = {
  targetMiB: mib,
  streamBytes: stream.bytes,
  events: stream.events,
  assistantTextChars: stream.textLength,
  retainedHeapBytes: retained,
  /** Retained heap / SSE bytes received. Target < 3. */
  ratioToStream: Number((retained / stream.bytes).toFixed(3)),
  /** Retained heap / characters of assistant text (the text is a small share of the wire: envelopes dominate). */
  ratioToAssistantText: Number((retained / stream.textLength).toFixed(2)),
  bytesPerEvent: Math.round(retained / stream.events),
};
log(
  `memory: ${(stream.bytes / MB).toFixed(2)} MiB stream → ${(retained / MB).toFixed(2)} MiB retained (${result.ratioToStream}× the stream)`,
);
writePartResult(result);
