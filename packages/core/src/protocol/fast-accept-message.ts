/*
 * The proxy's hot path (apps/bench, proxy part): a relay that forwards the upstream's own bytes needs to know that
 * each message is valid, not the event object that JSON.parse would build and drop at once. One sticky regular
 * expression reads a whole message of the usual shape in place (a run of up to 32 in the kit's framing, see
 * fastAcceptMessages): irregexp runs it as native code, and `test` allocates nothing. It either accepts the
 * message, when parseSSEMessage would surely accept it too, or does not match, and then says nothing: the message
 * goes through parseSSEMessage, which alone says what is wrong. So every shape it does not read costs speed, never
 * correctness (fast-accept-message.property.test.ts holds it to that).
 *
 * Read here: `event: <type>` and `id: <seq>` (in either order), then one `data: <JSON object>` line, LF line ends,
 * then the blank line. The object starts with `type`, then `runId`, `seq` and `sessionId` in any order, then the fields
 * its type adds in the order of the protocol's table (docs/protocol.md), then any fields of other names. Values
 * nest one level at most; `", "` and `": "` separators are read too. Not read (parsed the full way): CR line ends,
 * comments, `retry`, several data lines, other key orders, escaped keys, a seq written 1e2, `turn/end` (its
 * reason is an object with rules) and `run.completed` (one per attempt, with transformed interactions).
 *
 * The rules are fast-parse-event.ts's, which accepts exactly what the zod schemas accept: a non-empty `runId`,
 * `sessionId`, `callId` and `messageId`, a `seq` and `attempt` of at most 15 digits (a positive safe integer for
 * sure), a `fraction` from 0 to 1 written plainly. No key is read twice: the extra fields may not have the name
 * of any field of the table, so JSON.parse (which keeps the last of a repeated key) cannot keep another value than
 * the one checked, and a key with escapes (`"t\u0079pe"` is `type` to JSON.parse) never matches.
 */

/** One character a JSON string holds as it is (no quote, backslash or control character). */
const PLAIN = '[^"\\\\\\u0000-\\u001f]';
/** A JSON string, escapes included; unrolled so that a run of plain characters is one greedy loop. */
const STRING = `"${PLAIN}*(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})${PLAIN}*)*"`;
const NON_EMPTY_STRING = `(?!"")${STRING}`;
const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** A positive integer of at most 15 digits: always a safe integer, and always String() of its value. */
const POSITIVE = '[1-9]\\d{0,14}';
/** A number from 0 to 1, written plainly (0.5e0 and -0 are left to JSON.parse). */
const FRACTION = '(?:0(?:\\.\\d+)?|1(?:\\.0+)?)';
const COLON = ': ?';
const COMMA = ', ?';
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
/** Any JSON value nested at most one level (deeper values are parsed the full way). */
const VALUE = `(?:${SCALAR}|\\{(?:${STRING}${COLON}${SCALAR}(?:${COMMA}${STRING}${COLON}${SCALAR})*)?\\}|\\[(?:${SCALAR}(?:${COMMA}${SCALAR})*)?\\])`;

const field = (name: string, value: string) => `"${name}"${COLON}${value}`;
const optional = (name: string, value: string) => `(?:${COMMA}${field(name, value)})?`;

/** The named fields of the table: an extra field may have none of these names (see above). */
const KNOWN_FIELDS = [
  'type',
  'runId',
  'seq',
  'sessionId',
  'attempt',
  'messageId',
  'delta',
  'label',
  'fraction',
  'level',
  'message',
  'callId',
  'name',
  'input',
  'output',
  'isError',
  'reason',
];
const EXTRA_FIELD = `"(?!(?:${KNOWN_FIELDS.join('|')})")${PLAIN}*"${COLON}${VALUE}`;

/** `runId`, `seq` and `sessionId` in any order; the seq is the `id:` line's digits (group 2). */
const ENVELOPE_FIELDS = [field('runId', NON_EMPTY_STRING), field('seq', '\\2'), field('sessionId', NON_EMPTY_STRING)];
const ENVELOPE = `(?:${[
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
]
  .map((order) => order.map((index) => COMMA + ENVELOPE_FIELDS[index]!).join(''))
  .join('|')})`;

/** Per type (its name as a pattern): the fields it adds, in the protocol table's order. */
const TYPE_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['(?:text|reasoning)\\.delta', COMMA + field('delta', STRING)],
  ['progress', COMMA + field('label', STRING) + optional('fraction', FRACTION)],
  ['log', COMMA + field('level', '"(?:debug|info|warn|error)"') + COMMA + field('message', STRING)],
  [
    'tool\\.started',
    COMMA + field('callId', NON_EMPTY_STRING) + COMMA + field('name', STRING) + optional('input', VALUE),
  ],
  [
    'tool\\.completed',
    COMMA + field('callId', NON_EMPTY_STRING) + optional('output', VALUE) + optional('isError', '(?:true|false)'),
  ],
  ['agent\\.idle', ''],
  ['message\\.received', COMMA + field('messageId', NON_EMPTY_STRING)],
  ['run\\.started', COMMA + field('attempt', POSITIVE)],
];
const TYPE_NAMES =
  'text\\.delta|reasoning\\.delta|progress|log|tool\\.started|tool\\.completed|agent\\.idle|message\\.received|run\\.started';

/**
 * The `event:` and `id:` lines, in either order: two lookaheads read the type (group 1, one of the type names) and
 * the seq (group 2) from whichever line holds them, then both lines are passed.
 */
const FRAMING =
  `(?=(?:id:[^\\n]*\\n)?event: ?(${TYPE_NAMES})\\n)(?=(?:event:[^\\n]*\\n)?id: ?(${POSITIVE})\\n)` +
  '(?:event:[^\\n]*\\nid:|id:[^\\n]*\\nevent:)[^\\n]*\\n';

/* `(?=\1")` makes data.type the very name of the `event:` line; each branch holds the fields of its own type. */
const DATA = `data: ?\\{${field('type', '')}"(?=\\1")(?:${TYPE_FIELDS.map(
  ([type, fields]) => `${type}"${ENVELOPE}${fields}`,
).join('|')})(?:${COMMA}${EXTRA_FIELD})*\\}\\n\\n`;

const MESSAGE = new RegExp(FRAMING + DATA, 'y');

/** The most messages one call reads (see fastAcceptMessages). */
const RUN_LENGTH = 32;

/*
 * The kit's own framing (`event:` then `id:`), without the lookaheads either order needs, and up to RUN_LENGTH
 * messages in one match: each repetition starts with its captures cleared, so `\1` and `\2` are that message's own.
 * On the proxy bench's stream a call per 32 messages took 0.66 of the time of a call per message (6.5 against 9.9 ms
 * a stream, a scratch timing of 2026-12-03).
 */
const RUN = new RegExp(`(?:event: ?(${TYPE_NAMES})\\nid: ?(${POSITIVE})\\n${DATA}){1,${RUN_LENGTH}}`, 'y');

/** `regex` from `start` in `text`: the index its match ends at, or -1 (also when the engine's stack runs out). */
function matchEnd(regex: RegExp, text: string, start: number): number {
  regex.lastIndex = start;
  try {
    return regex.test(text) ? regex.lastIndex : -1;
  } catch (error) {
    // The regex engine's backtracking stack is bounded: a message of millions of fields (a 15 MB one, under the
    // default maxMessageBytes) overflows it with a RangeError. Not a verdict on the message: the full path reads it.
    if (error instanceof RangeError) return -1;
    throw error;
  }
}

/**
 * Reads the SSE message whose first line starts at `start` in `text`, where a parser of the text is between
 * messages. Returns the index just past the blank line that ends it when `parseSSEMessage` would accept it
 * (a valid event of a common type whose `event:` and `id:` agree with its data); -1 when it cannot tell, which
 * says nothing about the message: parse it the full way.
 */
export function fastAcceptMessage(text: string, start: number): number {
  return matchEnd(MESSAGE, text, start);
}

/**
 * fastAcceptMessage over a run of messages: the index just past the last of up to 32 consecutive messages from
 * `start` that `parseSSEMessage` would each accept (at least one), or -1 as fastAcceptMessage. A run in the kit's
 * framing is read in one match; otherwise one message is.
 */
export function fastAcceptMessages(text: string, start: number): number {
  const end = matchEnd(RUN, text, start);
  // A message that starts with its `event:` line reads the same to both expressions: no second try for it.
  return end >= 0 || text.startsWith('event:', start) ? end : matchEnd(MESSAGE, text, start);
}
