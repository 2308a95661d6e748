import type { KnownRunEvent } from './types.js';

/*
 * Hot path (apps/bench, `pnpm bench`): a long stream is deltas, tool calls, progress and logs, and the zod parse
 * (envelope plus the discriminated union) costs more per event than decoding and JSON.parse together. Each check
 * below accepts exactly what that event's schema in schemas.ts accepts (fast-parse-event.property.test.ts holds
 * them equal); when one refuses, the caller parses with zod, which names the field. `run.completed` is left to zod:
 * it is one per attempt, and its interactions are transformed.
 */

type Fields = Readonly<Record<string, unknown>>;

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isOptionalBoolean = (value: unknown) => value === undefined || typeof value === 'boolean';
const isAttempt = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;
const logLevels: ReadonlySet<unknown> = new Set(['debug', 'info', 'warn', 'error']);

/** What each event type adds to the envelope, as in its schema. */
const typeChecks: readonly (readonly [string, (event: Fields) => boolean])[] = [
  ['text.delta', (event) => typeof event.delta === 'string'],
  ['reasoning.delta', (event) => typeof event.delta === 'string'],
  [
    'progress',
    (event) =>
      typeof event.label === 'string' &&
      (event.fraction === undefined ||
        (typeof event.fraction === 'number' && event.fraction >= 0 && event.fraction <= 1)),
  ],
  ['log', (event) => logLevels.has(event.level) && typeof event.message === 'string'],
  ['tool.started', (event) => isNonEmptyString(event.callId) && typeof event.name === 'string'],
  ['tool.completed', (event) => isNonEmptyString(event.callId) && isOptionalBoolean(event.isError)],
  ['run.started', (event) => isAttempt(event.attempt)],
  ['message.received', (event) => isNonEmptyString(event.messageId)],
  [
    'turn/end',
    (event) =>
      typeof event.reason === 'object' &&
      event.reason !== null &&
      !Array.isArray(event.reason) &&
      typeof (event.reason as Fields).kind === 'string',
  ],
  ['agent.idle', () => true],
];

/** A known type's check, and its one string (see `shareStrings`). */
interface TypeCheck {
  readonly type: string;
  readonly accepts: (event: Fields) => boolean;
}

const fieldChecks: ReadonlyMap<string, TypeCheck> = new Map(
  typeChecks.map(([type, accepts]) => [type, { type, accepts }]),
);

/*
 * Memory: JSON.parse gives every string value longer than about ten characters its own copy, so each event a run
 * keeps in `state.events` would hold its own type (`tool.completed`, `reasoning.delta`), run id and session id:
 * about 100 bytes per kept event with 26-character ids, as much again as the event itself. Set to one shared string
 * of each instead: the values are equal, so no reader sees a difference, and the copies become garbage at once.
 * The last ids seen are the ones shared: a stream carries one run, and mostly its root session.
 */
let sharedRunId = '';
let sharedSessionId = '';

function shareStrings(event: { type: string; runId: string; sessionId: string }, type: string): void {
  event.type = type;
  if (event.runId === sharedRunId) event.runId = sharedRunId;
  else sharedRunId = event.runId;
  if (event.sessionId === sharedSessionId) event.sessionId = sharedSessionId;
  else sharedSessionId = event.sessionId;
}

/**
 * The event, when `json` is a valid event of a type checked here; `undefined` otherwise (another type, or a
 * malformed one: parse it with `parseRunEvent` for the typed error). Only for objects JSON.parse just made: nothing
 * else holds them, so the object is returned as it is (its strings shared, see above), where zod would return an
 * equal copy.
 */
export function fastParseEvent(json: unknown): KnownRunEvent | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const event = json as Fields;
  const check = typeof event.type === 'string' ? fieldChecks.get(event.type) : undefined;
  if (
    check === undefined ||
    !isNonEmptyString(event.runId) ||
    !isNonEmptyString(event.sessionId) ||
    !Number.isSafeInteger(event.seq) ||
    (event.seq as number) <= 0 ||
    !check.accepts(event)
  ) {
    return undefined;
  }
  shareStrings(json as { type: string; runId: string; sessionId: string }, check.type);
  return json as KnownRunEvent;
}
