import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSSEMessage } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';
import { textDeltaEventSchema } from './schemas.js';

/*
 * parseSSEMessage checks text deltas by hand for speed (see isValidTextDelta). It must accept exactly what
 * textDeltaEventSchema accepts and return what zod returns; everything else must still end as a ProtocolError.
 */
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, fc.jsonValue());
const deltaLike = fc.record(
  {
    type: fc.oneof({ weight: 8, arbitrary: fc.constant('text.delta') }, { weight: 1, arbitrary: fc.jsonValue() }),
    runId: field(fc.constantFrom('run_1', '')),
    seq: field(fc.oneof(fc.integer({ min: -3, max: 2 ** 53 + 2 }), fc.double(), fc.constantFrom(2 ** 53 - 1, 2 ** 53, 1.5, -0))),
    sessionId: field(fc.constantFrom('ses_1', '')),
    delta: field(fc.string()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['type'] },
);

describe('the text.delta fast path of parseSSEMessage', () => {
  it('accepts exactly what textDeltaEventSchema accepts, and returns the same event', () => {
    fc.assert(
      fc.property(deltaLike, (value) => {
        const data = JSON.stringify(value);
        const json: unknown = JSON.parse(data);
        const expected = textDeltaEventSchema.safeParse(json);
        if (expected.success) {
          expect(parseSSEMessage({ data })).toEqual(expected.data);
        } else {
          expect(() => parseSSEMessage({ data })).toThrow(ProtocolError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('still names the field of a malformed delta', () => {
    const data = JSON.stringify({ type: 'text.delta', runId: 'run_1', seq: 3, sessionId: 'ses_1', delta: 42 });
    expect(() => parseSSEMessage({ data, event: 'text.delta', id: '3' })).toThrow(expect.objectContaining({ seq: 3, eventType: 'text.delta', path: ['delta'] }));
  });
});
