import { describe, expect, it } from 'vitest';
import { heapAfterGC } from '../heap.test-helper.js';
import type { RunEvent } from '../protocol/types.js';
import { reduceRun } from './reduce-run.js';
import { createInitialRunState, type RunState } from './run-state.js';

/*
 * What a run holds while it streams, before anything reads its text: a client that only awaits the result (a
 * script, a server route) never renders the draft. `retainEvents: 'structural'` promises a run held by its text,
 * not its event count (docs/performance.md, section 3).
 */
const envelope = { runId: 'run_memory', sessionId: 'ses_memory' };
const words = [' the', ' quick', ' brown', ' fox', ' jumps', ' over', ' lazy', ' dogs'];

/** Folds `count` one-word deltas, `block` text then `block` reasoning in turn, made one at a time as a stream's. */
function stream(count: number, block: number): RunState {
  let state = reduceRun(createInitialRunState({ retainEvents: 'structural' }), {
    type: 'client/start-requested',
    mode: 'start',
  });
  state = reduceRun(state, { type: 'client/connected' });
  for (let seq = 1; seq <= count; seq++) {
    const type = Math.floor((seq - 1) / block) % 2 === 0 ? 'text.delta' : 'reasoning.delta';
    // A fresh string per delta, as JSON.parse gives each event.
    const delta = `${words[seq % words.length]!}${seq % 10}`;
    state = reduceRun(state, { type, ...envelope, seq, delta } as RunEvent);
  }
  return state;
}

describe('a streaming run keeping structural events, whose text nothing reads', () => {
  it('holds about its text, not an object per delta', () => {
    const before = heapAfterGC();
    const state = stream(300_000, 1_000);
    const held = heapAfterGC() - before;
    expect(state.phase).toBe('streaming');
    // One byte per character: every word is ASCII.
    const textBytes = state.draftText.length + state.reasoning.length;
    expect(textBytes).toBeGreaterThan(1_500_000);
    // A rope of every delta holds about 9 times the text (an object of 20 to 32 bytes and a string per 6-character
    // delta); flattened as it grows, at most an eighth of the deltas wait in it (1.2 times the text measured).
    expect(held).toBeLessThan(2 * textBytes);
  });
});
