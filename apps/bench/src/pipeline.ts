import { decodeSSE, initialRunState, parseSSEMessage, reduceRun, type RunEvent, type RunState } from '@kestrel/core';
import { chunksToStream } from '@kestrel/testing';

/**
 * The floor: the least any SSE JSON client must do with these bytes. TextDecoder (streaming), split on blank
 * lines, JSON.parse of each `data:` payload. No validation, no state. Returns the event count.
 */
export function floorPipeline(chunks: readonly Uint8Array[]): number {
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
  for (const chunk of chunks) take(decoder.decode(chunk, { stream: true }), false);
  take(decoder.decode(), true);
  return count;
}

/** What the run client does to a response body, minus the network: start, connect, then every event through the reducer. */
export function startedState(): RunState {
  const requested = reduceRun(initialRunState, { type: 'client/start-requested', mode: 'start' });
  return reduceRun(requested, { type: 'client/connected' });
}

/** decodeSSE → parseSSEMessage → reduceRun, as the run client reads a body. */
export async function kitPipeline(chunks: readonly Uint8Array[]): Promise<RunState> {
  let state = startedState();
  for await (const message of decodeSSE(chunksToStream(chunks))) state = reduceRun(state, parseSSEMessage(message));
  return state;
}

/** decodeSSE alone. Returns the message count. */
export async function decodeOnly(chunks: readonly Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const message of decodeSSE(chunksToStream(chunks))) if (message.data !== '') count += 1;
  return count;
}

/** decodeSSE → parseSSEMessage, keeping the events (the input of the reducer-alone measurement). */
export async function decodeAndParse(chunks: readonly Uint8Array[]): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const message of decodeSSE(chunksToStream(chunks))) events.push(parseSSEMessage(message));
  return events;
}

/** reduceRun alone over events parsed beforehand. */
export function reduceOnly(events: readonly RunEvent[]): RunState {
  let state = startedState();
  for (const event of events) state = reduceRun(state, event);
  return state;
}
