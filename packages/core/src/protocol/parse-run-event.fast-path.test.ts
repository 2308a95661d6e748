import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParseEvent } from './fast-parse-event.js';
import { parseRunEvent, parseSSEMessage } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';
import { KNOWN_EVENT_TYPES } from './schemas.js';

/*
 * parseSSEMessage checks the common event kinds by hand for speed (fast-parse-event.ts). The shortcut must be
 * invisible: for any data, the hand check accepts exactly what the zod schemas accept, with the same value, and
 * parseSSEMessage fails where the zod path (parseRunEvent) fails.
 */
// Every known type but run.completed, which zod alone parses (one per attempt, with transformed interactions).
const FAST_TYPES = KNOWN_EVENT_TYPES.filter((type) => type !== 'run.completed');

/** Mostly the valid value, sometimes an edge case of it, sometimes any JSON (or the field left out, see below). */
const field = <T>(valid: fc.Arbitrary<T>, ...edges: unknown[]) =>
  fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: edges.length > 0 ? fc.constantFrom(...edges) : fc.jsonValue() },
    { weight: 1, arbitrary: fc.jsonValue() },
  );

const integerEdges = [0, -1, 1.5, -0, 2 ** 53, 2 ** 53 - 1, '1', null];
const eventLike = fc.record(
  {
    type: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...FAST_TYPES) }, { weight: 1, arbitrary: fc.jsonValue() }),
    runId: field(fc.constant('run_1'), '', 1),
    seq: field(fc.integer({ min: 1, max: 2 ** 53 - 1 }), ...integerEdges),
    sessionId: field(fc.constant('ses_1'), '', null),
    delta: field(fc.string(), 1, null),
    label: field(fc.string(), 0),
    fraction: field(fc.double({ min: 0, max: 1, noNaN: true }), -0, 1, 0, 1.0000001, -0.1, 2, '0.5', null),
    level: field(fc.constantFrom('debug', 'info', 'warn', 'error'), 'trace', 'INFO', ''),
    message: field(fc.string(), 3),
    callId: field(fc.constantFrom('call_1', 'c'), '', 7),
    name: field(fc.string(), null),
    input: fc.jsonValue(),
    output: fc.jsonValue(),
    isError: field(fc.boolean(), 'true', 0, null),
    attempt: field(fc.integer({ min: 1, max: 9 }), ...integerEdges),
    messageId: field(fc.constant('msg_1'), '', 5),
    reason: field(
      fc.record({ kind: field(fc.constantFrom('completed', 'max-tokens', ''), 1, null), extra: fc.jsonValue() }),
      [],
      [{ kind: 'completed' }],
      null,
      'completed',
    ),
    extra: fc.jsonValue(),
  },
  // Any field may be missing: optional ones are valid without, required ones must be refused.
  { requiredKeys: ['type'] },
);

function zodOutcome(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseRunEvent(value) };
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    return { ok: false };
  }
}

describe('the hand-written validators of the common event kinds', () => {
  it('accept exactly what the zod schemas accept, with the same value', () => {
    fc.assert(
      fc.property(eventLike, (value) => {
        const data = JSON.stringify(value);
        const fast = fastParseEvent(JSON.parse(data));
        const zod = zodOutcome(JSON.parse(data));
        const checkedByHand = (FAST_TYPES as readonly unknown[]).includes(value.type);
        if (fast !== undefined) expect(zod).toEqual({ ok: true, value: fast });
        else if (checkedByHand) expect(zod).toEqual({ ok: false });
      }),
      { numRuns: 6000 },
    );
  });

  it('make parseSSEMessage return what the zod path returns, and fail where it fails', () => {
    fc.assert(
      fc.property(eventLike, (value) => {
        const data = JSON.stringify(value);
        const zod = zodOutcome(JSON.parse(data));
        if (zod.ok) expect(parseSSEMessage({ data })).toEqual(zod.value);
        else expect(() => parseSSEMessage({ data })).toThrow(ProtocolError);
      }),
      { numRuns: 2000 },
    );
  });

  it('accept every kind when valid, the unknown fields kept', () => {
    const envelope = { runId: 'run_1', seq: 4, sessionId: 'ses_1', extra: { kept: true } };
    const valid = [
      { type: 'text.delta', delta: '' },
      { type: 'reasoning.delta', delta: 'think' },
      { type: 'progress', label: 'Reading', fraction: 1 },
      { type: 'progress', label: 'Reading' },
      { type: 'log', level: 'warn', message: 'slow' },
      { type: 'tool.started', callId: 'c1', name: 'search', input: { q: 1 } },
      { type: 'tool.completed', callId: 'c1' },
      { type: 'tool.completed', callId: 'c1', output: null, isError: true },
      { type: 'run.started', attempt: 1 },
      { type: 'message.received', messageId: 'm' },
      { type: 'turn/end', reason: { kind: 'max-tokens', tokens: 9 } },
      { type: 'agent.idle' },
    ];
    for (const fields of valid) {
      const event = { ...envelope, ...fields };
      expect(fastParseEvent(event)).toBe(event);
      expect(parseRunEvent(event)).toEqual(event);
    }
  });

  it('still name the field, type and seq of a malformed event', () => {
    const cases = [
      [{ type: 'text.delta', delta: 42 }, ['delta']],
      [{ type: 'reasoning.delta' }, ['delta']],
      [{ type: 'progress', label: 'x', fraction: 1.5 }, ['fraction']],
      [{ type: 'log', level: 'trace', message: 'x' }, ['level']],
      [{ type: 'tool.started', callId: '', name: 'search' }, ['callId']],
      [{ type: 'tool.completed', callId: 'c1', isError: 'yes' }, ['isError']],
    ] as const;
    // JSON.parse reads 1e400 as Infinity, which no number field accepts.
    const infinite = '{"type":"progress","runId":"run_1","seq":3,"sessionId":"ses_1","label":"x","fraction":-1e400}';
    expect(() => parseSSEMessage({ data: infinite })).toThrow(expect.objectContaining({ path: ['fraction'] }));
    for (const [fields, path] of cases) {
      const data = JSON.stringify({ runId: 'run_1', seq: 3, sessionId: 'ses_1', ...fields });
      expect(() => parseSSEMessage({ data, event: fields.type, id: '3' })).toThrow(
        expect.objectContaining({ seq: 3, eventType: fields.type, path }),
      );
    }
  });
});
