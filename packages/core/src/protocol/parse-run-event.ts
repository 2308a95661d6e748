import type * as z from 'zod/mini';
import { eventEnvelopeSchema, isKnownEventType, knownRunEventSchema } from './schemas.js';
import { ProtocolError, toProtocolIssues } from './protocol-error.js';
import { protocolParseOptions } from './protocol-error-map.js';
import type { SSEMessage } from '../sse/sse-message.js';
import type { RunCompletedEvent, RunEvent, UnknownRunEvent } from './types.js';
import { fastParseEvent } from './fast-parse-event.js';

function readSeq(value: Record<string, unknown>): number | undefined {
  return typeof value.seq === 'number' && Number.isInteger(value.seq) ? value.seq : undefined;
}

/**
 * Validates one decoded event object. Known types are checked field by field; unknown types come back as an
 * {@link UnknownRunEvent} that keeps the raw object.
 *
 * @throws {ProtocolError} naming the event type, seq and field path when the object breaks the protocol.
 * @example
 * const event = parseRunEvent(JSON.parse(message.data));
 * if (event.type === 'run.completed') console.log(event.output.status);
 */
export function parseRunEvent(value: unknown): RunEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolError('expected a JSON object', { raw: value });
  }
  const record = value as Record<string, unknown>;
  const eventType = typeof record.type === 'string' && record.type !== '' ? record.type : undefined;
  const seq = readSeq(record);

  /** Parses `value` with `schema`, or throws the error of its first issue, naming the event's type and seq. */
  const parse = <T>(schema: z.ZodMiniType<T>, fallback: string): T => {
    const parsed = schema.safeParse(value, protocolParseOptions);
    if (parsed.success) return parsed.data;
    const issues = toProtocolIssues(parsed.error.issues);
    throw new ProtocolError(issues[0]?.message ?? fallback, { eventType, seq, issues, raw: value });
  };

  // One parse: each event's schema checks the envelope fields too.
  if (eventType !== undefined && isKnownEventType(eventType)) {
    return parse(knownRunEventSchema, `invalid "${eventType}" event`);
  }

  const { type, runId, seq: envelopeSeq, sessionId } = parse(eventEnvelopeSchema, 'invalid event envelope');
  const unknown: UnknownRunEvent = {
    type: 'unknown',
    unknownType: type,
    runId,
    seq: envelopeSeq,
    sessionId,
    raw: record,
  };
  return unknown;
}

/** Like {@link parseRunEvent}, for the single terminal event of the JSON route and `GET /v1/runs/{id}/result`. */
export function parseRunCompletedEvent(value: unknown): RunCompletedEvent {
  const event = parseRunEvent(value);
  if (event.type !== 'run.completed') {
    const actual = event.type === 'unknown' ? event.unknownType : event.type;
    throw new ProtocolError(`expected a "run.completed" event, got "${actual}"`, {
      eventType: actual,
      seq: event.seq,
      path: ['type'],
      raw: value,
    });
  }
  // No second parse: transforms (unsupported interactions) must run exactly once.
  return event;
}

/**
 * The seq the SSE framing names (`id:`), for errors whose JSON hides it. Read only when an error needs it, and
 * not as a closure per message: both showed up in the parsing profile of long streams (apps/bench).
 */
function framedSeq(message: SSEMessage): number | undefined {
  return message.id !== undefined && /^[1-9]\d*$/.test(message.id) ? Number(message.id) : undefined;
}

const ZERO = 48;

/**
 * Whether `id` is `String(seq)` for a seq the schemas accepted (a positive safe integer), read digit by digit
 * without making the string: with one event per chunk, a string per event showed in the profile (apps/bench). At
 * most 16 digits, each step exact below 2^53; a longer or larger id cannot be the decimal of a safe integer.
 */
function isDecimalOf(id: string, seq: number): boolean {
  const length = id.length;
  if (length === 0 || length > 16 || id.charCodeAt(0) === ZERO) return false;
  let value = 0;
  for (let index = 0; index < length; index++) {
    const digit = id.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return false;
    value = value * 10 + digit;
  }
  return value === seq;
}

/**
 * Turns one SSE message into a validated event: parses its JSON, checks that `event:` agrees with `data.type`
 * and that `id:` equals `String(seq)`.
 *
 * @throws {ProtocolError}
 */
export function parseSSEMessage(message: SSEMessage): RunEvent {
  const framedType = message.event === '' ? undefined : message.event;
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch (cause) {
    throw new ProtocolError(`data is not valid JSON (${(cause as Error).message})`, {
      eventType: framedType,
      seq: framedSeq(message),
      path: ['data'],
      raw: message.data,
    });
  }
  let event: RunEvent;
  try {
    // Common kinds are checked by hand (fast-parse-event.ts); zod names the field of anything they refuse.
    event = fastParseEvent(json) ?? parseRunEvent(json);
  } catch (error) {
    // When the JSON itself hides its type or seq, the SSE framing still names the event.
    if (!(error instanceof ProtocolError) || (error.eventType !== undefined && error.seq !== undefined)) throw error;
    throw new ProtocolError(error.reason, {
      eventType: error.eventType ?? framedType,
      seq: error.seq ?? framedSeq(message),
      path: error.path,
      issues: error.issues,
      raw: error.raw,
    });
  }
  const dataType = event.type === 'unknown' ? event.unknownType : event.type;
  if (framedType !== undefined && framedType !== dataType) {
    throw new ProtocolError(`SSE event name "${framedType}" disagrees with data.type "${dataType}"`, {
      eventType: dataType,
      seq: event.seq,
      path: ['type'],
      raw: json,
    });
  }
  if (message.id !== undefined && !isDecimalOf(message.id, event.seq)) {
    throw new ProtocolError(`SSE id "${message.id}" differs from seq ${event.seq}`, {
      eventType: dataType,
      seq: event.seq,
      path: ['seq'],
      raw: json,
    });
  }
  return event;
}
