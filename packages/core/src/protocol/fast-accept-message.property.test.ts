import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSSEParser } from '../sse/sse-parser.js';
import type { SSEMessage } from '../sse/sse-message.js';
import { encodeSSEEvent } from './encode-run-event.js';
import { fastAcceptMessage, fastAcceptMessages } from './fast-accept-message.js';
import { parseSSEMessage } from './parse-run-event.js';
import { KNOWN_EVENT_TYPES } from './schemas.js';

/*
 * fastAcceptMessage may only vouch for what the full path accepts: the SSE parser frames exactly one message ending
 * where it says, and parseSSEMessage accepts that message, with the type of its `event:` line and the seq of its
 * `id:` line. It may decline anything (the full path then runs), so these tests generate mostly valid messages of
 * every kind, then near misses of each field and framing, and random corruption.
 */

/** What the full path makes of `text`: the messages the parser frames and the index after its last boundary. */
function fullPath(text: string): { messages: SSEMessage[]; boundary: number } {
  const messages: SSEMessage[] = [];
  let boundary = -1;
  createSSEParser(
    (message) => messages.push(message),
    undefined,
    undefined,
    (index) => (boundary = index),
  )(text);
  return { messages, boundary };
}

/** Checks the promise on one text whose first message starts at `start`; true when the fast path vouched. */
function expectSound(text: string, start = 0): boolean {
  const end = fastAcceptMessage(text, start);
  if (end < 0) return false;
  const { messages, boundary } = fullPath(text.slice(start, end));
  expect(messages).toHaveLength(1);
  expect(boundary).toBe(end - start);
  const message = messages[0]!;
  const event = parseSSEMessage(message);
  expect(event.type).toBe(message.event);
  expect(String(event.seq)).toBe(message.id);
  return true;
}

type EventType = (typeof KNOWN_EVENT_TYPES)[number];
/** The types read in place: all but turn/end (its reason has rules) and run.completed. */
const COMMON_TYPES = KNOWN_EVENT_TYPES.filter((type) => type !== 'turn/end' && type !== 'run.completed');

/** A member of an object as raw JSON text: key token and value text. Written by hand so keys can repeat. */
type Member = readonly [key: string, value: string];
const json = (value: unknown) => JSON.stringify(value);
const member = (key: string, value: unknown): Member => [json(key), json(value)];

/** Strings with what JSON escapes: quotes, backslashes, control characters, lone surrogates, U+2028, emoji. */
const text = fc.oneof(
  fc.constantFrom('', 'a', 'run_1', 'word 3 ', '"', '\\', '\n', 'é🦅日', '\u2028', '\ud800', '\u0000'),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const nonEmptyText = text.filter((value) => value !== '');
const seqText = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 99_999 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 53 - 1 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '1e2',
      '1.0',
      '-0',
      '0',
      '-1',
      '01',
      '1E0',
      '999999999999999',
      '1000000000000000',
      '9007199254740993',
      '12345678901234567890',
      '"3"',
      'null',
    ),
  },
);
const fractionText = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map(json),
  fc.constantFrom('0', '1', '1.0', '1.00001', '0.5e0', '-0', '-0.0', '2', '0.99999999999999999999', '1e-400', '"0.5"'),
);

/** The valid members of `type` in the protocol table's order (some optional ones left out at random). */
function validMembers(eventType: EventType): fc.Arbitrary<Member[]> {
  const envelope = fc
    .tuple(nonEmptyText, seqText, nonEmptyText)
    .map(([runId, seq, sessionId]): Member[] => [
      member('type', eventType),
      member('runId', runId),
      [json('seq'), seq],
      member('sessionId', sessionId),
    ]);
  const own = ((): fc.Arbitrary<Member[]> => {
    switch (eventType) {
      case 'text.delta':
      case 'reasoning.delta':
        return text.map((delta) => [member('delta', delta)]);
      case 'progress':
        return fc
          .tuple(text, fc.option(fractionText))
          .map(([label, fraction]) => [
            member('label', label),
            ...(fraction === null ? [] : [[json('fraction'), fraction] as Member]),
          ]);
      case 'log':
        return fc
          .tuple(fc.constantFrom('debug', 'info', 'warn', 'error'), text)
          .map(([level, message]) => [member('level', level), member('message', message)]);
      case 'tool.started':
        return fc
          .tuple(nonEmptyText, text, fc.option(fc.jsonValue({ maxDepth: 3 })))
          .map(([callId, name, input]) => [
            member('callId', callId),
            member('name', name),
            ...(input === null ? [] : [member('input', input)]),
          ]);
      case 'tool.completed':
        return fc
          .tuple(nonEmptyText, fc.option(fc.jsonValue({ maxDepth: 3 })), fc.option(fc.boolean()))
          .map(([callId, output, isError]) => [
            member('callId', callId),
            ...(output === null ? [] : [member('output', output)]),
            ...(isError === null ? [] : [member('isError', isError)]),
          ]);
      case 'run.started':
        return fc.integer({ min: 1, max: 9 }).map((attempt) => [member('attempt', attempt)]);
      case 'message.received':
        return nonEmptyText.map((messageId) => [member('messageId', messageId)]);
      case 'agent.idle':
        return fc.constant([]);
      case 'turn/end':
        return fc.constant([member('reason', { kind: 'completed' })]);
      case 'run.completed':
        return fc.constant([member('attempt', 1), member('output', { status: 'COMPLETED', assistantText: 'Done.' })]);
      default:
        eventType satisfies never;
        return fc.constant([]);
    }
  })();
  return fc.tuple(envelope, own).map(([head, tail]) => [...head, ...tail]);
}

/**
 * Keys near the real ones: every field of the protocol's table (a repeat), written here rather than taken from the
 * code under test, escaped spellings, and others.
 */
const keyText = fc.oneof(
  fc
    .constantFrom(
      ...'type runId seq sessionId attempt messageId delta label fraction level'.split(' '),
      ...'message callId name input output isError reason __proto__ extra types Type'.split(' '),
      '',
    )
    .map(json),
  fc.constantFrom('"t\\u0079pe"', '"de\\u006cta"', '"s\\u0065q"', '"x'),
  fc.string({ maxLength: 6 }).map(json),
);
/** Values: any JSON, and near misses written by hand (some not JSON at all). */
const valueText = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map(json),
  fc.constantFrom(
    '1e2',
    '-0',
    '01',
    '1.',
    '.5',
    'tru',
    'nul',
    '"\\x"',
    '"\\u12"',
    '"a',
    '{"a":{"b":[1]}}',
    '[[]]',
    '{}',
  ),
  fc.constantFrom('"text.delta"', '"progress"', '"run.completed"', '""', '"debug"', '"trace"', 'true', 'false'),
);

type Mutation =
  | { readonly op: 'set'; readonly at: number; readonly value: string }
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'add'; readonly at: number; readonly key: string; readonly value: string }
  | { readonly op: 'swap'; readonly at: number; readonly other: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: valueText }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: keyText, value: valueText }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
);

function mutate(members: readonly Member[], mutations: readonly Mutation[]): Member[] {
  const list = [...members];
  for (const change of mutations) {
    const at = list.length === 0 ? 0 : change.at % list.length;
    switch (change.op) {
      case 'set':
        if (list[at] !== undefined) list[at] = [list[at][0], change.value];
        break;
      case 'delete':
        list.splice(at, 1);
        break;
      case 'add':
        list.splice(change.at % (list.length + 1), 0, [change.key, change.value]);
        break;
      case 'swap': {
        const other = list.length === 0 ? 0 : change.other % list.length;
        if (list[at] !== undefined && list[other] !== undefined) [list[at], list[other]] = [list[other], list[at]];
        break;
      }
      default:
        change satisfies never;
    }
  }
  return list;
}

/** How one message is written: separators, the framing lines and their order, the line end. */
interface Writing {
  readonly mutations: readonly Mutation[];
  readonly colon: string;
  readonly comma: string;
  readonly eventLine: string;
  readonly idLine: string;
  readonly extraLine: string;
  readonly order: readonly number[];
  readonly dataPrefix: string;
  readonly lineEnd: string;
}
/** As the kit writes it, near misses left to the members' values. */
const tidy = (type: string): Writing => ({
  mutations: [],
  colon: ':',
  comma: ',',
  eventLine: `event: ${type}`,
  idLine: 'id: seq',
  extraLine: '',
  order: [0, 1, 2, 3],
  dataPrefix: 'data: ',
  lineEnd: '\n',
});
/**
 * Anything around the tidy writing: mutated members, other separators, framings and line ends. With `kitFraming`,
 * the kit's lines in the kit's order (`event:` then `id:`, then `data:`) with near misses in each: what a run read
 * in one match must refuse.
 */
const varied = (type: string, kitFraming = false): fc.Arbitrary<Writing> =>
  fc.record({
    mutations: fc.array(mutation, { maxLength: kitFraming ? 2 : 3 }),
    colon: fc.constantFrom(':', ': ', ' :'),
    comma: fc.constantFrom(',', ', ', ' ,'),
    eventLine: fc.constantFrom(
      `event: ${type}`,
      `event:${type}`,
      `event:  ${type}`,
      'event: log',
      `event: ${type} `,
      ...(kitFraming ? ['event: progress', `event: ${type}\u0000`] : ['event: ', '']),
    ),
    idLine: fc.constantFrom(
      'id: seq',
      'id:seq',
      'id: 0seq',
      'id: 7',
      'id: seq\u0000',
      ...(kitFraming ? ['id:  seq', 'id: seq '] : ['']),
    ),
    extraLine: kitFraming
      ? fc.constant('')
      : fc.constantFrom('', ': keep-alive', 'retry: 5', 'data: {}', 'data:', 'id: 1', 'event: log'),
    order: kitFraming
      ? fc.constant([0, 1, 2, 3])
      : fc.oneof(fc.constant([0, 1, 2, 3]), fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4 })),
    dataPrefix: fc.constantFrom('data: ', 'data:', 'data:  '),
    lineEnd: kitFraming ? fc.constantFrom('\n', '\n', '\n', '\r\n') : fc.constantFrom('\n', '\r\n', '\r'),
  });

/** An SSE message of one of `types`, written as `writing` says. */
const messageOf = (types: readonly EventType[], writing: (type: string) => fc.Arbitrary<Writing>) =>
  fc
    .constantFrom(...types)
    .chain((type) => fc.tuple(validMembers(type), writing(type)))
    .map(([valid, writing]) => {
      const members = mutate(valid, writing.mutations);
      const data = `{${members.map(([key, value]) => key + writing.colon + value).join(writing.comma)}}`;
      const seq = members.find(([key]) => key === '"seq"')?.[1] ?? '1';
      const lines = [
        writing.eventLine,
        writing.idLine.replace('seq', seq),
        writing.dataPrefix + data,
        writing.extraLine,
      ];
      const framed = writing.order.map((index) => lines[index]!).filter((line) => line !== '');
      return framed.map((line) => line + writing.lineEnd).join('') + writing.lineEnd;
    });

/** One SSE message of any type: half written as the kit writes it, half varied. */
const message = messageOf([...KNOWN_EVENT_TYPES, ...COMMON_TYPES, ...COMMON_TYPES], (type) =>
  fc.oneof(fc.constant(tidy(type)), varied(type)),
);
/**
 * What a run of the kit's looks like, near misses included: common events as the kit writes them, the same framing
 * with something wrong in it, and any other message among them.
 */
const runMessage = fc.oneof(
  { weight: 3, arbitrary: messageOf(COMMON_TYPES, (type) => fc.constant(tidy(type))) },
  { weight: 2, arbitrary: messageOf(COMMON_TYPES, (type) => varied(type, true)) },
  { weight: 1, arbitrary: message },
);

/** A character put in, replaced or taken out somewhere: what a broken upstream or a cut stream looks like. */
const corruption = fc.record({
  at: fc.nat(),
  remove: fc.integer({ min: 0, max: 2 }),
  insert: fc.constantFrom('', '"', '\\', '\n', '\r', ',', '}', '{', ':', '0', 'a', ' ', '\u0000', '\u00e9', '\n\n'),
});

type Corruption = typeof corruption extends fc.Arbitrary<infer T> ? T : never;

/** `text` with `changes` made in turn. */
function corrupt(text: string, changes: readonly Corruption[]): string {
  let broken = text;
  for (const { at, remove, insert } of changes) {
    const index = at % (broken.length + 1);
    broken = broken.slice(0, index) + insert + broken.slice(index + remove);
  }
  return broken;
}

describe('fastAcceptMessage: vouches only for what the full path accepts', () => {
  it('never accepts a message parseSSEMessage refuses, nor frames one differently (generated, near misses included)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (text) => {
        if (expectSound(text)) accepted++;
      }),
      { numRuns: 4000 },
    );
    // The generator must reach the fast path often, or the property says little.
    expect(accepted, `${accepted} of 4000 accepted`).toBeGreaterThan(1000);
  });

  it('never accepts a corrupted message the full path refuses', () => {
    fc.assert(
      fc.property(message, fc.array(corruption, { minLength: 1, maxLength: 3 }), (text, changes) => {
        expectSound(corrupt(text, changes));
      }),
      { numRuns: 4000 },
    );
  });

  it('reads a message where it starts in a longer text, and only that message', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 3 }), message, message, (before, text, after) => {
        const prefix = before.join('');
        const whole = prefix + text + after;
        const end = fastAcceptMessage(whole, prefix.length);
        if (end < 0) return;
        expect(end).toBe(prefix.length + fastAcceptMessage(text + after, 0));
        expectSound(whole.slice(prefix.length, end));
      }),
      { numRuns: 1000 },
    );
  });
});

/** The ends fastAcceptMessage reaches one message at a time from `start`, at most 32 of them. */
function endsOneAtATime(text: string, start: number): number[] {
  const ends: number[] = [];
  for (let at = start; ends.length < 32;) {
    const end = fastAcceptMessage(text, at);
    if (end < 0) break;
    ends.push(end);
    at = end;
  }
  return ends;
}

/**
 * Checks the promise of fastAcceptMessages on one text: it stops where one message at a time would have gone.
 * Returns how many messages it vouched for.
 */
function expectRunSound(text: string): number {
  const end = fastAcceptMessages(text, 0);
  const ends = endsOneAtATime(text, 0);
  if (ends.length === 0) {
    expect(end).toBe(-1);
    return 0;
  }
  expect(ends).toContain(end);
  const { messages, boundary } = fullPath(text.slice(0, end));
  expect(boundary).toBe(end);
  expect(messages).toHaveLength(ends.indexOf(end) + 1);
  for (const one of messages) {
    const event = parseSSEMessage(one);
    expect(event.type).toBe(one.event);
    expect(String(event.seq)).toBe(one.id);
  }
  return messages.length;
}

describe('fastAcceptMessages: a run of messages in one call', () => {
  it('vouches only for messages fastAcceptMessage would each vouch for, and ends on one of their ends', () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.array(runMessage, { minLength: 1, maxLength: 40 }), (texts) => {
        if (expectRunSound(texts.join('')) > 1) runs++;
      }),
      { numRuns: 1500 },
    );
    // Runs of several messages must be common, or the property says little about the repetition.
    expect(runs, `${runs} of 1500 read several messages`).toBeGreaterThan(120);
  });

  it('stops before a corrupted message, and never vouches for one the full path refuses', () => {
    fc.assert(
      fc.property(
        fc.array(runMessage, { minLength: 1, maxLength: 40 }),
        fc.array(corruption, { minLength: 1, maxLength: 3 }),
        (texts, changes) => {
          expectRunSound(corrupt(texts.join(''), changes));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('reads 32 messages in the kit framing at a time, and one at a time in another framing', () => {
    const events = Array.from({ length: 40 }, (_, i) => ({
      type: 'text.delta',
      runId: 'run_1',
      seq: i + 1,
      sessionId: 'ses_root',
      delta: `word ${i} `,
    }));
    const framed = events.map((event) => encodeSSEEvent(event));
    const text = framed.join('');
    const after = (count: number) => framed.slice(0, count).join('').length;
    expect(fastAcceptMessages(text, 0)).toBe(after(32));
    expect(fastAcceptMessages(text, after(32))).toBe(text.length);
    const idFirst = framed.map((one) => one.replace(/^(event: [^\n]*\n)(id: [^\n]*\n)/, '$2$1')).join('');
    expect(fastAcceptMessages(idFirst, 0)).toBe(after(1));
  });
});

describe('fastAcceptMessage: what it reads in place', () => {
  const envelope = { runId: 'run_1', seq: 12, sessionId: 'ses_root' };
  const common = [
    { type: 'text.delta', ...envelope, delta: 'naïve "café" 🦅\n' },
    { type: 'reasoning.delta', ...envelope, delta: '' },
    { type: 'progress', ...envelope, label: 'Reading', fraction: 0.25 },
    { type: 'progress', ...envelope, label: 'Reading' },
    { type: 'log', ...envelope, level: 'warn', message: 'slow' },
    { type: 'tool.started', ...envelope, callId: 'call_1', name: 'lookup', input: { q: 'item 1', n: 2 } },
    { type: 'tool.completed', ...envelope, callId: 'call_1', output: { rows: 3 }, isError: false },
    { type: 'tool.completed', ...envelope, callId: 'call_1' },
    { type: 'run.started', ...envelope, attempt: 2 },
    { type: 'message.received', ...envelope, messageId: 'msg_1' },
    { type: 'agent.idle', ...envelope },
  ];

  it('accepts every common kind as the kit frames it, up to the blank line that ends it', () => {
    for (const event of common) {
      const text = encodeSSEEvent(event);
      expect(fastAcceptMessage(`${text}event: log\n`, 0)).toBe(text.length);
      expect(expectSound(text)).toBe(true);
    }
  });

  it("accepts id before event, the envelope's fields in any order, spaces after separators, other fields at the end", () => {
    const texts = [
      'event: text.delta\nid: 12\ndata: {"type":"text.delta","sessionId":"s","seq":12,"runId":"r","delta":"a"}\n\n',
      'event: text.delta\nid: 12\ndata: {"type": "text.delta", "runId": "r", "seq": 12, "sessionId": "s", "delta": "a"}\n\n',
      'id: 12\nevent: text.delta\ndata: {"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a"}\n\n',
      'event:log\nid:12\ndata:{"type":"log","runId":"r","seq":12,"sessionId":"s","level":"info","message":"m","ts":"x","meta":{"a":1}}\n\n',
    ];
    for (const text of texts) expect(expectSound(text)).toBe(true);
  });

  it('leaves a message too long for the regex engine to the full path instead of throwing', () => {
    const fields = ',"x":1'.repeat(2_500_000);
    const text = `event: log\nid: 3\ndata: {"type":"log","runId":"r","seq":3,"sessionId":"s","level":"info","message":"m"${fields}}\n\n`;
    expect(fastAcceptMessage(text, 0)).toBe(-1);
    expect(parseSSEMessage({ event: 'log', id: '3', data: text.slice(text.indexOf('{'), -2) }).type).toBe('log');
  });

  it('leaves to the full path what it does not read, valid or not', () => {
    const delta = (data: string, framing = 'event: text.delta\nid: 12\n') => `${framing}data: ${data}\n\n`;
    const declined = [
      encodeSSEEvent({ type: 'turn/end', ...envelope, reason: { kind: 'completed' } }),
      encodeSSEEvent({
        type: 'run.completed',
        ...envelope,
        attempt: 1,
        output: { status: 'COMPLETED', assistantText: 'x' },
      }),
      encodeSSEEvent(common[0]!).replaceAll('\n', '\r\n'),
      delta('{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a"}', 'event: text.delta\n'),
      delta(
        '{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a"}',
        ': comment\nevent: text.delta\nid: 12\n',
      ),
      // JSON.parse keeps the last of a repeated key, and reads escapes in keys.
      delta('{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a","delta":1}'),
      delta('{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","de\\u006cta":1,"delta":"a"}'),
      delta('{"delta":"a","type":"text.delta","runId":"r","seq":12,"sessionId":"s"}'),
      delta('{"type":"text.delta","runId":"r","seq":1.2e1,"sessionId":"s","delta":"a"}'),
      delta('{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a","x":{"y":{"z":1}}}'),
      delta('{"type":"text.delta","runId":"","seq":12,"sessionId":"s","delta":"a"}'),
      delta('{"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a"} '),
      'event: text.delta\nid: 12\ndata: {"type":"text.delta","runId":"r","seq":12,"sessionId":"s","delta":"a"}\n',
    ];
    for (const text of declined) expect(fastAcceptMessage(text, 0)).toBe(-1);
  });
});
