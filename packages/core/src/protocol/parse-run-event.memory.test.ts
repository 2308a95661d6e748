import { describe, expect, it } from 'vitest';
import { heapAfterGC } from '../heap.test-helper.js';
import type { SSEMessage } from '../sse/sse-message.js';
import { parseSSEMessage } from './parse-run-event.js';
import type { RunEvent } from './types.js';

/*
 * What a kept event costs: with `retainEvents: 'all'` a run keeps every parsed event, and with 'structural' every
 * event but the folded deltas (docs/performance.md, section 3).
 */

// Ids as long as real ones (a prefix and a 26-character ULID), and ids short enough for JSON.parse to share itself.
const long = { runId: 'run_01JD3X5Q8Z7Y6W2V1U0T9S8R7Q', sessionId: 'ses_01JD3X5Q8Z7Y6W2V1U0T9S8R7Q' };
const short = { runId: 'run_1', sessionId: 'ses_1' };
const count = 20_000;

function messages(envelope: typeof long, type: string, fields: (seq: number) => object): SSEMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    data: JSON.stringify({
      type,
      runId: envelope.runId,
      seq: index + 1,
      sessionId: envelope.sessionId,
      ...fields(index + 1),
    }),
  }));
}

/** Heap bytes per event that parsing `batch` and keeping every event adds. */
function keptBytesPerEvent(batch: readonly SSEMessage[]): number {
  // Twice, keeping the second: the first reading in a fresh process also sees the test runner's start-up garbage go.
  let perEvent = 0;
  for (let round = 0; round < 2; round++) {
    const before = heapAfterGC();
    const kept: RunEvent[] = batch.map((message) => parseSSEMessage(message));
    const after = heapAfterGC();
    expect(kept).toHaveLength(count);
    perEvent = (after - before) / count;
  }
  return perEvent;
}

/*
 * Compared, not absolute: the same events with short ids (or a short type), whose strings JSON.parse already
 * shares, are the reference. A copy of each id would cost about 48 bytes per event, of a 15-character type 32.
 */
describe('a parsed event kept by a run', () => {
  it('costs no more with long run and session ids: it shares them with the events before it', () => {
    const delta = () => ({ delta: 'x' });
    const extra =
      keptBytesPerEvent(messages(long, 'text.delta', delta)) - keptBytesPerEvent(messages(short, 'text.delta', delta));
    expect(extra).toBeLessThan(24);
  });

  it('costs no more for a long type name: reasoning deltas and tool events share their type string', () => {
    const delta = () => ({ delta: 'x' });
    const extra =
      keptBytesPerEvent(messages(long, 'reasoning.delta', delta)) -
      keptBytesPerEvent(messages(long, 'text.delta', delta));
    expect(extra).toBeLessThan(16);
  });

  it('keeps every field as sent', () => {
    const event = parseSSEMessage(messages(long, 'reasoning.delta', () => ({ delta: 'thinking' }))[0]!);
    expect(event).toEqual({ type: 'reasoning.delta', ...long, seq: 1, delta: 'thinking' });
  });
});
