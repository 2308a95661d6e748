import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunEvent, parseSSEMessage } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';
import { KNOWN_EVENT_TYPES } from './schemas.js';

/* Whatever arrives, parsing either returns an event or throws a ProtocolError: never a TypeError, never a hang. */

function outcome(parse: () => unknown): 'event' | 'protocol-error' {
  try {
    parse();
    return 'event';
  } catch (error) {
    if (error instanceof ProtocolError) return 'protocol-error';
    throw error;
  }
}

// Objects that look like events, so the fuzzing reaches the per-type schemas rather than failing at the envelope.
const eventLike = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...KNOWN_EVENT_TYPES, 'usage.reported'), fc.jsonValue()),
    runId: fc.oneof(fc.constant('run_1'), fc.jsonValue()),
    seq: fc.oneof(fc.nat(), fc.jsonValue()),
    sessionId: fc.oneof(fc.constant('ses_1'), fc.jsonValue()),
    attempt: fc.oneof(fc.constant(1), fc.jsonValue()),
    output: fc.oneof(
      fc.record(
        {
          status: fc.constantFrom('COMPLETED', 'FAILED', 'CANCELLED', 'WAITING', 'OTHER'),
          assistantText: fc.jsonValue(),
          interaction: fc.jsonValue(),
          error: fc.jsonValue(),
        },
        { requiredKeys: ['status'] },
      ),
      fc.jsonValue(),
    ),
    reason: fc.jsonValue(),
    delta: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('parsing never crashes', () => {
  it('parseRunEvent on any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), eventLike), (value) => void outcome(() => parseRunEvent(value))),
      { numRuns: 2000 },
    );
  });

  it('parseSSEMessage on any framing and data', () => {
    const message = fc.record({
      event: fc.option(fc.string(), { nil: undefined }),
      id: fc.option(fc.oneof(fc.string(), fc.nat().map(String)), { nil: undefined }),
      data: fc.oneof(
        fc.string(),
        eventLike.map((value) => JSON.stringify(value)),
      ),
    });
    fc.assert(
      fc.property(message, (m) => void outcome(() => parseSSEMessage(m))),
      { numRuns: 2000 },
    );
  });

  it('the fuzzing reaches both outcomes', () => {
    const seen = new Set(
      fc.sample(eventLike, { numRuns: 500, seed: 7 }).map((value) => outcome(() => parseRunEvent(value))),
    );
    expect(seen).toEqual(new Set(['event', 'protocol-error']));
  });
});
