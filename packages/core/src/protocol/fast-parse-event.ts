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
 * Whether `event` has the fields its type adds to the envelope, as in its schema; `false` for a type not checked
 * here. A switch rather than a map of checks: the deltas, the bulk of every stream, are matched in one comparison,
 * without hashing the type string or calling through a table (one event per chunk, apps/bench).
 */
function hasTypeFields(event: Fields): boolean {
  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
      return typeof event.delta === 'string';
    case 'progress':
      return (
        typeof event.label === 'string' &&
        (event.fraction === undefined ||
          (typeof event.fraction === 'number' && event.fraction >= 0 && event.fraction <= 1))
      );
    case 'log':
      return logLevels.has(event.level) && typeof event.message === 'string';
    case 'tool.started':
      return isNonEmptyString(event.callId) && typeof event.name === 'string';
    case 'tool.completed':
      return isNonEmptyString(event.callId) && isOptionalBoolean(event.isError);
    case 'run.started':
      return isAttempt(event.attempt);
    case 'message.received':
      return isNonEmptyString(event.messageId);
    case 'turn/end':
      return (
        typeof event.reason === 'object' &&
        event.reason !== null &&
        !Array.isArray(event.reason) &&
        typeof (event.reason as Fields).kind === 'string'
      );
    case 'agent.idle':
      return true;
    default:
      return false;
  }
}

/**
 * The event, when `json` is a valid event of a type checked here; `undefined` otherwise (another type, or a
 * malformed one: parse it with `parseRunEvent` for the typed error). Only for objects JSON.parse just made: nothing
 * else holds them, so the object is returned as it is, where zod would return an equal copy.
 */
export function fastParseEvent(json: unknown): KnownRunEvent | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const event = json as Fields;
  if (
    !hasTypeFields(event) ||
    !isNonEmptyString(event.runId) ||
    !isNonEmptyString(event.sessionId) ||
    !Number.isSafeInteger(event.seq) ||
    (event.seq as number) <= 0
  ) {
    return undefined;
  }
  return json as KnownRunEvent;
}
