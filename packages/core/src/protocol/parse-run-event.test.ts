import { createEventFactory, getScenario, scenarioEvents, type WireEvent } from '@kestrel/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunCompletedEvent, parseRunEvent, parseSSEMessage } from './parse-run-event.js';
import { ProtocolError, formatPath } from './protocol-error.js';
import { KNOWN_EVENT_TYPES } from './schemas.js';

interface ExpectedError {
  readonly eventType: string | undefined;
  readonly seq: number | undefined;
  readonly path: string;
  /** Words of "what was expected" that the message must contain. */
  readonly expected: RegExp;
}

function caught(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    return error as ProtocolError;
  }
  throw new Error('expected a ProtocolError, nothing was thrown');
}

/** Every protocol error must say which event, which seq, which field and what was expected. */
function expectProtocolError(fn: () => unknown, expected: ExpectedError): ProtocolError {
  const error = caught(fn);
  expect(error.kind).toBe('protocol');
  expect(error.message.endsWith(`: ${error.reason}`)).toBe(true);
  expect(error.eventType).toBe(expected.eventType);
  expect(error.seq).toBe(expected.seq);
  expect(formatPath(error.path)).toBe(expected.path);
  if (expected.eventType !== undefined) expect(error.message).toContain(`"${expected.eventType}" event`);
  if (expected.seq !== undefined) expect(error.message).toContain(`(seq ${expected.seq})`);
  if (expected.path !== '') expect(error.message).toContain(`at ${expected.path}`);
  expect(error.message).toMatch(expected.expected);
  return error;
}

const e = createEventFactory({ runId: 'run_p', sessionId: 'ses_p', firstSeq: 7 });
const base = { runId: 'run_p', seq: 7, sessionId: 'ses_p' };
const completed = (output: Record<string, unknown>) => ({ ...base, type: 'run.completed', attempt: 1, output });
const waiting = (interaction: unknown) => completed({ status: 'WAITING', interaction });

/** One valid event of every known type, as the server writes them. */
const validEvents: Record<(typeof KNOWN_EVENT_TYPES)[number], WireEvent> = {
  'run.started': e.started(1),
  'message.received': e.received('msg_1'),
  'reasoning.delta': e.reasoning('thinking'),
  'text.delta': e.text('Hello'),
  progress: e.progress('Reading', 0.5),
  log: e.log('warn', 'slow tool'),
  'tool.started': e.toolStarted('call_1', 'search', { q: 'kestrel' }),
  'tool.completed': e.toolCompleted('call_1', { hits: 3 }, false),
  'turn/end': e.turnEnd('max-tokens'),
  'agent.idle': e.idle(),
  'run.completed': e.completed({ status: 'COMPLETED', assistantText: 'Done.', finalizedPayload: { total: 3 } }),
};

describe('parseRunEvent: valid events', () => {
  it.each(Object.entries(validEvents))('accepts a valid %s event unchanged', (type, event) => {
    expect(parseRunEvent(event)).toEqual(event);
    expect(parseRunEvent(event).type).toBe(type);
  });

  it('has a valid sample for every known type', () => {
    expect(Object.keys(validEvents).sort()).toEqual([...KNOWN_EVENT_TYPES].sort());
  });

  it('accepts every event of every shared scenario that is meant to be valid', () => {
    for (const name of [
      'completed-text',
      'completed-payload',
      'tool-error',
      'subagent-turn-end',
      'waiting-form',
      'cancelled',
    ]) {
      for (const event of scenarioEvents(getScenario(name).steps)) expect(() => parseRunEvent(event)).not.toThrow();
    }
  });

  it('keeps fields a newer server adds, on the event and nested objects', () => {
    const event = {
      ...completed({
        status: 'FAILED',
        error: { code: 'x', message: 'y', traceId: 't1' },
        assistantText: null,
        costUsd: 0.2,
      }),
      region: 'eu',
    };
    const parsed = parseRunEvent(event);
    expect(parsed).toMatchObject({ region: 'eu', output: { costUsd: 0.2, error: { traceId: 't1' } } });
    const turn = parseRunEvent({ ...e.turnEnd('completed'), reason: { kind: 'completed', tokens: 12 } });
    expect(turn).toMatchObject({ reason: { kind: 'completed', tokens: 12 } });
  });

  it('accepts a future turn/end kind as a plain string', () => {
    expect(parseRunEvent(e.turnEnd('rate-limited'))).toMatchObject({ reason: { kind: 'rate-limited' } });
  });
});

describe('parseRunEvent: outputs', () => {
  it.each([
    ['null', null],
    ['missing', undefined],
    ['empty', ''],
  ])('rejects COMPLETED with assistantText %s', (_label, assistantText) => {
    const output = assistantText === undefined ? { status: 'COMPLETED' } : { status: 'COMPLETED', assistantText };
    expectProtocolError(() => parseRunEvent(completed(output)), {
      eventType: 'run.completed',
      seq: 7,
      path: 'output.assistantText',
      expected: /non-empty string/,
    });
  });

  it('accepts COMPLETED whose assistantText is whitespace only: non-empty is what the contract asks (docs/protocol.md)', () => {
    for (const assistantText of [' ', '\n\n', '\u00a0']) {
      expect(parseRunEvent(completed({ status: 'COMPLETED', assistantText }))).toMatchObject({
        output: { status: 'COMPLETED', assistantText },
      });
    }
  });

  it('accepts COMPLETED with text and a payload that is not a serialization of it', () => {
    const parsed = parseRunEvent(
      completed({ status: 'COMPLETED', assistantText: 'Total is 3', finalizedPayload: { total: 3 } }),
    );
    expect(parsed).toMatchObject({
      output: { status: 'COMPLETED', assistantText: 'Total is 3', finalizedPayload: { total: 3 } },
    });
  });

  const interaction = { id: 'int_1', kind: 'text', prompt: 'Why?' };
  it.each([
    ['FAILED', { error: { code: 'boom', message: 'Boom' } }],
    ['CANCELLED', { cancellation: { reason: 'Stopped', by: 'user' } }],
    ['WAITING', { interaction }],
  ])('accepts %s with assistantText null, missing or a string', (status, fields) => {
    for (const assistantText of [null, undefined, 'some text']) {
      const output = { status, ...fields, ...(assistantText === undefined ? {} : { assistantText }) };
      expect(parseRunEvent(completed(output))).toMatchObject({ output: { status } });
    }
  });

  it.each([
    [
      { status: 'SUCCEEDED', assistantText: 'x' },
      'output.status',
      /expected one of "COMPLETED"\|"FAILED"\|"CANCELLED"\|"WAITING"/,
    ],
    [{ assistantText: 'x' }, 'output.status', /expected one of "COMPLETED"/],
    [{ status: 'FAILED' }, 'output.error', /expected object/],
    [{ status: 'FAILED', error: { code: 7, message: 'm' } }, 'output.error.code', /expected string/],
    [
      { status: 'FAILED', error: { code: 'c', message: 'm', retryable: 'yes' } },
      'output.error.retryable',
      /expected boolean/,
    ],
    [
      { status: 'FAILED', error: { code: 'c', message: 'm' }, assistantText: 3 },
      'output.assistantText',
      /expected string/,
    ],
    [{ status: 'CANCELLED' }, 'output.cancellation', /expected object/],
    [{ status: 'CANCELLED', cancellation: { reason: 'r', by: 'robot' } }, 'output.cancellation.by', /"user"\|"system"/],
    [{ status: 'WAITING' }, 'output.interaction', /expected object/],
  ])('rejects output %j at %s', (output, path, expected) => {
    expectProtocolError(() => parseRunEvent(completed(output)), { eventType: 'run.completed', seq: 7, path, expected });
  });

  it('rejects run.completed without output or attempt', () => {
    const { output: _output, ...noOutput } = completed({ status: 'COMPLETED', assistantText: 'x' });
    expectProtocolError(() => parseRunEvent(noOutput), {
      eventType: 'run.completed',
      seq: 7,
      path: 'output',
      expected: /expected object/,
    });
    const { attempt: _attempt, ...noAttempt } = completed({ status: 'COMPLETED', assistantText: 'x' });
    expectProtocolError(() => parseRunEvent(noAttempt), {
      eventType: 'run.completed',
      seq: 7,
      path: 'attempt',
      expected: /expected number/,
    });
  });
});

describe('parseRunEvent: invalid known events', () => {
  const cases: [string, WireEvent, string, RegExp][] = [
    ['run.started', { ...validEvents['run.started'], attempt: 0 }, 'attempt', />=1/],
    ['run.started', { ...validEvents['run.started'], attempt: 1.5 }, 'attempt', /expected int/],
    ['message.received', { ...validEvents['message.received'], messageId: undefined }, 'messageId', /expected string/],
    ['reasoning.delta', { ...validEvents['reasoning.delta'], delta: 5 }, 'delta', /expected string/],
    ['text.delta', { ...validEvents['text.delta'], delta: null }, 'delta', /expected string/],
    ['progress', { ...validEvents.progress, label: undefined }, 'label', /expected string/],
    ['progress', { ...validEvents.progress, fraction: 1.5 }, 'fraction', /<=1/],
    ['progress', { ...validEvents.progress, fraction: -0.1 }, 'fraction', />=0/],
    ['log', { ...validEvents.log, level: 'fatal' }, 'level', /"debug"\|"info"\|"warn"\|"error"/],
    ['log', { ...validEvents.log, message: 1 }, 'message', /expected string/],
    ['tool.started', { ...validEvents['tool.started'], callId: undefined }, 'callId', /expected string/],
    ['tool.started', { ...validEvents['tool.started'], name: 3 }, 'name', /expected string/],
    ['tool.completed', { ...validEvents['tool.completed'], callId: '' }, 'callId', />=1/],
    ['tool.completed', { ...validEvents['tool.completed'], isError: 'yes' }, 'isError', /expected boolean/],
    ['turn/end', { ...validEvents['turn/end'], reason: undefined }, 'reason', /expected object/],
    ['turn/end', { ...validEvents['turn/end'], reason: {} }, 'reason.kind', /reason\.kind to be a string/],
    ['turn/end', { ...validEvents['turn/end'], reason: { kind: 42 } }, 'reason.kind', /reason\.kind to be a string/],
    ['turn/end', { ...validEvents['turn/end'], reason: { kind: null } }, 'reason.kind', /reason\.kind to be a string/],
    ['agent.idle', { ...validEvents['agent.idle'], sessionId: 9 }, 'sessionId', /expected string/],
  ];
  it.each(cases)('rejects a bad %s event (%j) naming %s', (type, event, path, expected) => {
    expectProtocolError(() => parseRunEvent(event), { eventType: type, seq: event.seq, path, expected });
  });

  it('names the type but no seq when the seq itself is unreadable', () => {
    expectProtocolError(() => parseRunEvent({ ...validEvents['text.delta'], seq: '3' }), {
      eventType: 'text.delta',
      seq: undefined,
      path: 'seq',
      expected: /expected number/,
    });
    expectProtocolError(() => parseRunEvent({ ...validEvents['text.delta'], seq: 0 }), {
      eventType: 'text.delta',
      seq: 0,
      path: 'seq',
      expected: />0/,
    });
  });

  it('keeps what the server sent on the error', () => {
    const bad = { ...validEvents['tool.started'], callId: undefined };
    expect(caught(() => parseRunEvent(bad)).raw).toBe(bad);
  });

  it('reports every issue, the first one in the message', () => {
    const error = caught(() => parseRunEvent(completed({ status: 'FAILED', error: {} })));
    expect(error.issues.map((issue) => formatPath(issue.path))).toEqual(['output.error.code', 'output.error.message']);
  });
});

describe('parseRunEvent: envelope and unknown types', () => {
  it('returns an unknown type as an unknown-event value that keeps the raw object', () => {
    const raw = { ...base, type: 'citation.added', url: 'https://example.com', nested: { a: [1, 2] } };
    const parsed = parseRunEvent(raw);
    expect(parsed).toEqual({
      type: 'unknown',
      unknownType: 'citation.added',
      runId: 'run_p',
      seq: 7,
      sessionId: 'ses_p',
      raw,
    });
  });

  it('requires the envelope even on unknown types', () => {
    expectProtocolError(() => parseRunEvent({ type: 'citation.added', runId: 'run_p', sessionId: 'ses_p' }), {
      eventType: 'citation.added',
      seq: undefined,
      path: 'seq',
      expected: /expected number/,
    });
    expectProtocolError(() => parseRunEvent({ type: 'citation.added', seq: 4, sessionId: 'ses_p' }), {
      eventType: 'citation.added',
      seq: 4,
      path: 'runId',
      expected: /expected string/,
    });
  });

  it.each([
    ['a missing type', { ...base }, 'type'],
    ['a numeric type', { ...base, type: 5 }, 'type'],
    ['an empty type', { ...base, type: '' }, 'type'],
  ])('rejects %s', (_label, value, path) => {
    expectProtocolError(() => parseRunEvent(value), { eventType: undefined, seq: 7, path, expected: /expected|>=1/ });
  });

  it.each([null, 'text', 3, [1, 2]])('rejects a non-object %j', (value) => {
    expect(caught(() => parseRunEvent(value)).message).toMatch(/expected a JSON object/);
  });
});

describe('interactions inside WAITING', () => {
  it.each(['waiting-approval', 'waiting-choice-single', 'waiting-choice-multiple', 'waiting-text', 'waiting-form'])(
    'keeps the %s interaction as sent',
    (name) => {
      const terminal = scenarioEvents(getScenario(name).steps).at(-1) as WireEvent & {
        output: { interaction: unknown };
      };
      expect(parseRunEvent(terminal)).toMatchObject({
        output: { status: 'WAITING', interaction: terminal.output.interaction },
      });
    },
  );

  it('turns an unknown kind into kind "unsupported" with originalKind, keeping its fields', () => {
    const parsed = parseRunEvent(waiting({ id: 'int_sig', kind: 'signature', prompt: 'Sign here', document: 'c.pdf' }));
    expect(parsed).toMatchObject({
      output: {
        interaction: {
          id: 'int_sig',
          kind: 'unsupported',
          originalKind: 'signature',
          prompt: 'Sign here',
          document: 'c.pdf',
        },
      },
    });
  });

  it('keeps originalKind through parseRunCompletedEvent and when parsed twice', () => {
    const once = parseRunCompletedEvent(waiting({ id: 'int_sig', kind: 'signature', prompt: 'Sign here' }));
    expect(once.output).toMatchObject({ interaction: { kind: 'unsupported', originalKind: 'signature' } });
    const twice = parseRunEvent(JSON.parse(JSON.stringify(once)));
    expect(twice).toMatchObject({ output: { interaction: { kind: 'unsupported', originalKind: 'signature' } } });
  });

  it.each(['2026-11-30T12:00:00Z', '2026-11-30T23:59:59.123+01:00', '2028-02-29T00:00:00-05:30'])(
    'accepts expiresAt %s',
    (expiresAt) => {
      expect(parseRunEvent(waiting({ id: 'i', kind: 'text', prompt: 'p', expiresAt }))).toMatchObject({
        output: { interaction: { expiresAt } },
      });
    },
  );

  it.each([
    'tomorrow',
    '2026-11-30',
    '2026-11-30T12:00Z',
    '2026-11-30T12:00:00',
    '2026-11-30T12:00:00+0100',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-30T24:00:00Z',
  ])('rejects expiresAt %s, naming the field', (expiresAt) => {
    expectProtocolError(() => parseRunEvent(waiting({ id: 'i', kind: 'text', prompt: 'p', expiresAt })), {
      eventType: 'run.completed',
      seq: 7,
      path: 'output.interaction.expiresAt',
      expected: /Invalid ISO datetime/,
    });
  });

  it.each([
    [{ id: 'i', kind: 'approval', prompt: 'p' }, 'output.interaction.action', /expected string/],
    [{ id: 'i', kind: 'choice', prompt: 'p', options: [] }, 'output.interaction.options', />=1 items/],
    [
      { id: 'i', kind: 'choice', prompt: 'p', options: [{ label: 'A' }] },
      'output.interaction.options[0].id',
      /expected string/,
    ],
    [
      { id: 'i', kind: 'form', prompt: 'p', fields: [{ name: 'n', label: 'N', type: 'date' }] },
      'output.interaction.fields[0].type',
      /"string"\|"number"\|"boolean"\|"enum"/,
    ],
    [{ id: 'i', kind: 'text', prompt: 'p', expiresAt: 'tomorrow' }, 'output.interaction.expiresAt', /datetime/],
    [{ kind: 'text', prompt: 'p' }, 'output.interaction.id', /expected string/],
    [{ id: 'i', kind: 'signature' }, 'output.interaction.prompt', /expected string/],
    [{ id: 'i', prompt: 'p' }, 'output.interaction.kind', /expected string/],
    ['approve?', 'output.interaction', /expected object/],
  ])('rejects interaction %j at %s', (interaction, path, expected) => {
    expectProtocolError(() => parseRunEvent(waiting(interaction)), {
      eventType: 'run.completed',
      seq: 7,
      path,
      expected,
    });
  });
});

describe('parseRunCompletedEvent', () => {
  it('returns the terminal event', () => {
    expect(parseRunCompletedEvent(validEvents['run.completed'])).toEqual(validEvents['run.completed']);
  });

  it('rejects any other event, naming what it got', () => {
    expectProtocolError(() => parseRunCompletedEvent(validEvents['text.delta']), {
      eventType: 'text.delta',
      seq: validEvents['text.delta'].seq,
      path: 'type',
      expected: /expected a "run.completed" event, got "text.delta"/,
    });
    expectProtocolError(() => parseRunCompletedEvent({ ...base, type: 'usage.reported' }), {
      eventType: 'usage.reported',
      seq: 7,
      path: 'type',
      expected: /got "usage.reported"/,
    });
  });
});

describe('parseSSEMessage', () => {
  const delta = validEvents['text.delta'];
  const message = (event: string | undefined, id: string | undefined, data: string) => ({ event, id, data });

  it('parses a message whose name, id and data agree', () => {
    expect(parseSSEMessage(message('text.delta', String(delta.seq), JSON.stringify(delta)))).toEqual(delta);
  });

  it('accepts a message without event name or id', () => {
    expect(parseSSEMessage(message(undefined, undefined, JSON.stringify(delta)))).toEqual(delta);
  });

  it('rejects an event name that disagrees with data.type', () => {
    expectProtocolError(() => parseSSEMessage(message('reasoning.delta', String(delta.seq), JSON.stringify(delta))), {
      eventType: 'text.delta',
      seq: delta.seq,
      path: 'type',
      expected: /"reasoning.delta" disagrees with data.type "text.delta"/,
    });
  });

  it('checks the name of an unknown type against its data.type too', () => {
    const raw = { ...base, type: 'usage.reported' };
    expect(parseSSEMessage(message('usage.reported', '7', JSON.stringify(raw)))).toMatchObject({
      type: 'unknown',
      raw,
    });
    expectProtocolError(() => parseSSEMessage(message('citation.added', '7', JSON.stringify(raw))), {
      eventType: 'usage.reported',
      seq: 7,
      path: 'type',
      expected: /disagrees/,
    });
  });

  it('rejects an id that differs from String(seq)', () => {
    for (const id of ['8', '07', ' 7', 'abc']) {
      expectProtocolError(() => parseSSEMessage(message('text.delta', id, JSON.stringify({ ...delta, seq: 7 }))), {
        eventType: 'text.delta',
        seq: 7,
        path: 'seq',
        expected: /differs from seq 7/,
      });
    }
  });

  it('accepts an id exactly when it is String(seq), for any seq and any id that reads as a number', () => {
    const seqs = fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
    const lookalike = (seq: number) =>
      fc.constantFrom(
        String(seq),
        `0${seq}`,
        `+${seq}`,
        ` ${seq}`,
        `${seq} `,
        `${seq}.0`,
        seq.toExponential().replace('+', ''),
        `0x${seq.toString(16)}`,
        String(seq + 1),
        String(seq * 10),
        String(seq).slice(1),
        '',
      );
    fc.assert(
      fc.property(
        seqs.chain((seq) =>
          fc.tuple(fc.constant(seq), fc.oneof(lookalike(seq), fc.stringMatching(/^[0-9e+.]{0,17}$/))),
        ),
        ([seq, id]) => {
          const parse = () => parseSSEMessage(message('text.delta', id, JSON.stringify({ ...delta, seq })));
          if (id === String(seq)) expect(parse().seq).toBe(seq);
          else expect(parse).toThrow(`SSE id "${id}" differs from seq ${seq}`);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('rejects data that is not JSON, naming the SSE event and id', () => {
    const error = expectProtocolError(() => parseSSEMessage(message('text.delta', '12', '{"type": "text.delta",')), {
      eventType: 'text.delta',
      seq: 12,
      path: 'data',
      expected: /not valid JSON/,
    });
    expect(error.raw).toBe('{"type": "text.delta",');
  });

  it('names the event from its SSE framing when the JSON hides its type or seq', () => {
    const error = expectProtocolError(
      () =>
        parseSSEMessage(message('text.delta', '7', JSON.stringify({ runId: 'r', seq: 7, sessionId: 's', delta: 'x' }))),
      {
        eventType: 'text.delta',
        seq: 7,
        path: 'type',
        expected: /expected string, received undefined/,
      },
    );
    expect(error.message.match(/Protocol error in/g)).toHaveLength(1);
    expectProtocolError(
      () =>
        parseSSEMessage(
          message('turn/end', '9', JSON.stringify({ ...base, seq: 'nine', type: 'turn/end', reason: { kind: 'x' } })),
        ),
      {
        eventType: 'turn/end',
        seq: 9,
        path: 'seq',
        expected: /expected number/,
      },
    );
  });

  it('passes field errors of the data through', () => {
    expectProtocolError(
      () => parseSSEMessage(message('turn/end', '7', JSON.stringify({ ...base, type: 'turn/end', reason: {} }))),
      {
        eventType: 'turn/end',
        seq: 7,
        path: 'reason.kind',
        expected: /string/,
      },
    );
  });
});
