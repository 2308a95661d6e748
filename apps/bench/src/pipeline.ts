import {
  createRunClient,
  createTimerFrameScheduler,
  decodeSSE,
  initialRunState,
  parseSSEMessage,
  readSSE,
  reduceRun,
  type RunEvent,
  type RunState,
} from '@kestrel/core';
import { chunksToStream } from '@kestrel/testing';

/**
 * The floor: the least any SSE JSON client must do with these bytes. TextDecoder (streaming), split on blank
 * lines, JSON.parse of each `data:` payload. No validation, no state. Returns the event count.
 */
export function floorPipeline(chunks: readonly Uint8Array[]): number {
  const floor = createFloor();
  for (const chunk of chunks) floor.take(chunk);
  return floor.end();
}

/** The floor reading the same chunks as a fetch body delivers them: a ReadableStream, one `read()` per chunk. */
export async function floorFromStream(chunks: readonly Uint8Array[]): Promise<number> {
  const floor = createFloor();
  const reader = chunksToStream(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return floor.end();
    floor.take(value);
  }
}

/** The ReadableStream reads alone, one `read()` per chunk and nothing else: what no reader of a fetch body avoids. */
export async function streamReadsOnly(chunks: readonly Uint8Array[]): Promise<number> {
  const reader = chunksToStream(chunks).getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

function createFloor() {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  let count = 0;
  const take = (text: string, final: boolean) => {
    const blocks = (rest + text).split('\n\n');
    rest = final ? '' : (blocks.pop() ?? '');
    for (const block of blocks) {
      const at = block.indexOf('data: ');
      if (at === -1) continue;
      if (JSON.parse(block.slice(at + 6)) !== null) count += 1;
    }
  };
  return {
    take: (chunk: Uint8Array) => take(decoder.decode(chunk, { stream: true }), false),
    end: () => {
      take(decoder.decode(), true);
      return count;
    },
  };
}

/** What the run client does to a response body, minus the network: start, connect, then every event through the reducer. */
export function startedState(): RunState {
  const requested = reduceRun(initialRunState, { type: 'client/start-requested', mode: 'start' });
  return reduceRun(requested, { type: 'client/connected' });
}

/** readSSE → parseSSEMessage → reduceRun as the run client reads a body (follow-run.ts): one await per chunk. */
export async function kitPipeline(chunks: readonly Uint8Array[]): Promise<RunState> {
  let state = startedState();
  await readSSE(chunksToStream(chunks), (message) => {
    state = reduceRun(state, parseSSEMessage(message));
    return 'continue';
  });
  return state;
}

/** The same through the message-at-a-time `decodeSSE` (the public async iterator most code would write). */
export async function kitPipelinePerMessage(chunks: readonly Uint8Array[]): Promise<RunState> {
  let state = startedState();
  for await (const message of decodeSSE(chunksToStream(chunks))) state = reduceRun(state, parseSSEMessage(message));
  return state;
}

/** The whole run client: fetch (served from memory) → follow-run → store, until `result` resolves. */
export async function runClientPipeline(chunks: readonly Uint8Array[]): Promise<RunState> {
  const client = createRunClient({
    baseUrl: 'http://bench.invalid',
    scheduler: createTimerFrameScheduler(16),
    fetch: async () => new Response(chunksToStream(chunks), { headers: { 'content-type': 'text/event-stream' } }),
  });
  const handle = client.start({ input: 'Write a very long answer' });
  await handle.result;
  return handle.getState();
}

/** Decoding alone, as the run client decodes. Returns the message count. */
export async function decodeOnly(chunks: readonly Uint8Array[]): Promise<number> {
  let count = 0;
  await readSSE(chunksToStream(chunks), (message) => {
    if (message.data !== '') count += 1;
    return 'continue';
  });
  return count;
}

/** Decoding and parsing, keeping the events (the input of the reducer-alone measurement). */
export async function decodeAndParse(chunks: readonly Uint8Array[]): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await readSSE(chunksToStream(chunks), (message) => {
    events.push(parseSSEMessage(message));
    return 'continue';
  });
  return events;
}

/** reduceRun alone over events parsed beforehand. */
export function reduceOnly(events: readonly RunEvent[]): RunState {
  let state = startedState();
  for (const event of events) state = reduceRun(state, event);
  return state;
}
