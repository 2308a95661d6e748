import type { KnownRunEvent } from './types.js';

/*
 * Hot path (apps/bench, `pnpm bench`): a long stream is deltas, tool calls, progress and logs, and the zod parse
 * (envelope plus the discriminated union) costs more per event than decoding and JSON.parse together. Each check
 * below accepts exactly what that event's schema in schemas.ts accepts (parse-run-event.fast-path.test.ts holds
 * them equal); when one refuses, the caller parses with zod, which names the field. `run.completed` is left to zod:
 * it is one per attempt, and its interactions are transformed.
 */

type Fields = Readonly<Record<string, unknown>>;

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isOptionalBoolean = (value: unknown) => value === undefined || typeof value === 'boolean';
const isAttempt = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;
const logLevels: ReadonlySet<unknown> = new Set(['debug', 'info', 'warn', 'error']);

/**
 * The type's own string when `event` has the fields its type adds to the envelope, as in its schema (see
 * `shareStrings`); `undefined` for a type not checked here. A switch rather than a map of checks: the deltas, the
 * bulk of every stream, are matched in one comparison, without hashing the type string or calling through a table
 * (one event per chunk, apps/bench).
 */
function checkedType(event: Fields): string | undefined {
  switch (event.type) {
    case 'text.delta':
      return typeof event.delta === 'string' ? 'text.delta' : undefined;
    case 'reasoning.delta':
      return typeof event.delta === 'string' ? 'reasoning.delta' : undefined;
    case 'progress':
      return typeof event.label === 'string' &&
        (event.fraction === undefined ||
          (typeof event.fraction === 'number' && event.fraction >= 0 && event.fraction <= 1))
        ? 'progress'
        : undefined;
    case 'log':
      return logLevels.has(event.level) && typeof event.message === 'string' ? 'log' : undefined;
    case 'tool.started':
      return isNonEmptyString(event.callId) && typeof event.name === 'string' ? 'tool.started' : undefined;
    case 'tool.completed':
      return isNonEmptyString(event.callId) && isOptionalBoolean(event.isError) ? 'tool.completed' : undefined;
    case 'run.started':
      return isAttempt(event.attempt) ? 'run.started' : undefined;
    case 'message.received':
      return isNonEmptyString(event.messageId) ? 'message.received' : undefined;
    case 'turn/end':
      return typeof event.reason === 'object' &&
        event.reason !== null &&
        !Array.isArray(event.reason) &&
        typeof (event.reason as Fields).kind === 'string'
        ? 'turn/end'
        : undefined;
    case 'agent.idle':
      return 'agent.idle';
    default:
      return undefined;
  }
}

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
  const type = checkedType(event);
  if (
    type === undefined ||
    !isNonEmptyString(event.runId) ||
    !isNonEmptyString(event.sessionId) ||
    !Number.isSafeInteger(event.seq) ||
    (event.seq as number) <= 0
  ) {
    return undefined;
  }
  shareStrings(json as { type: string; runId: string; sessionId: string }, type);
  return json as KnownRunEvent;
}
