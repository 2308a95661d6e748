import { parseRunCompletedEvent, type RunCompletedEvent } from '@kestrel/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepNewerResult, type CachedRunResult } from './keep-newer-result.js';

/* Whatever order the cache's writers land in, it never goes back: not to "not settled" after an outcome, not to an earlier event. */

const outputs = {
  COMPLETED: { status: 'COMPLETED', assistantText: 'Done.' },
  FAILED: { status: 'FAILED', error: { code: 'tool_error', message: 'The tool failed' } },
  CANCELLED: { status: 'CANCELLED', cancellation: { reason: 'Stopped by the user' } },
  WAITING: { status: 'WAITING', interaction: { id: 'int_1', kind: 'text', prompt: 'Which year?' } },
} as const;

/** One run's terminal events: seq grows, and attempt with it. */
const terminal = fc
  .record({
    seq: fc.integer({ min: 1, max: 40 }),
    status: fc.constantFrom(...(Object.keys(outputs) as (keyof typeof outputs)[])),
  })
  .map(({ seq, status }) =>
    parseRunCompletedEvent({
      type: 'run.completed',
      runId: 'run_1',
      sessionId: 'ses_1',
      seq,
      attempt: Math.ceil(seq / 10),
      output: outputs[status],
    }),
  );
const write = fc.oneof(terminal, fc.constant(null));

const order = (event: RunCompletedEvent) => event.attempt * 1000 + event.seq;
const isFinal = (value: CachedRunResult): value is RunCompletedEvent =>
  value != null && value.output.status !== 'WAITING';

describe('keepNewerResult', () => {
  it('never moves back: an outcome is never replaced by null, an event never by an earlier one', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), (writes) => {
        let cached: CachedRunResult = undefined;
        for (const incoming of writes) {
          const next = keepNewerResult(cached, incoming);
          if (isFinal(cached)) expect(next).not.toBeNull();
          if (cached != null && next !== null) expect(order(next)).toBeGreaterThanOrEqual(order(cached));
          cached = next;
        }
      }),
    );
  });

  it('keeps the latest event whatever order the events arrive in', () => {
    fc.assert(
      fc.property(fc.array(terminal, { minLength: 1, maxLength: 20 }), (events) => {
        const kept = events.reduce<CachedRunResult>((cached, event) => keepNewerResult(cached, event), undefined);
        expect(kept === null || kept === undefined ? null : order(kept)).toBe(Math.max(...events.map(order)));
      }),
    );
  });
});
