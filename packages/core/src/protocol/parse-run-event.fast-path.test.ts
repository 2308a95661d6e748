import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunEvent, parseSSEMessage } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';

/*
 * parseSSEMessage checks text deltas by hand for speed (see isValidTextDelta). The shortcut must be invisible:
 * for any data, it returns what the zod path (parseRunEvent) returns, and fails where that path fails.
 */
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, fc.jsonValue());
const deltaLike = fc.record(
  {
    type: fc.oneof({ weight: 8, arbitrary: fc.constant('text.delta') }, { weight: 1, arbitrary: fc.jsonValue() }),
    runId: field(fc.constantFrom('run_1', '')),
    seq: field(
      fc.oneof(fc.integer({ min: -3, max: 2 ** 53 + 2 }), fc.double(), fc.constantFrom(2 ** 53 - 1, 2 ** 53, 1.5, -0)),
    ),
    sessionId: field(fc.constantFrom('ses_1', '')),
    delta: field(fc.string()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['type'] },
);

describe('the text.delta fast path of parseSSEMessage', () => {
  it('returns what the zod path returns, and fails where it fails', () => {
    fc.assert(
      fc.property(deltaLike, (value) => {
        const data = JSON.stringify(value);
        let expected: unknown;
        try {
          expected = parseRunEvent(JSON.parse(data));
        } catch (error) {
          expect(error).toBeInstanceOf(ProtocolError);
          expect(() => parseSSEMessage({ data })).toThrow(ProtocolError);
          return;
        }
        expect(parseSSEMessage({ data })).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('still names the field of a malformed delta', () => {
    const data = JSON.stringify({ type: 'text.delta', runId: 'run_1', seq: 3, sessionId: 'ses_1', delta: 42 });
    expect(() => parseSSEMessage({ data, event: 'text.delta', id: '3' })).toThrow(
      expect.objectContaining({ seq: 3, eventType: 'text.delta', path: ['delta'] }),
    );
  });
});
