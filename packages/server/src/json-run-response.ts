import {
  ProtocolError,
  parseRunCompletedEvent,
  toHeaders,
  type KestrelHeaders,
  type RunCompletedEvent,
} from '@kestrel/core';
import { checkWireEvent, logProtocolError } from './checked-wire-event.js';
import { errorResponse } from '@kestrel/core/internal';

/** Options of {@link jsonRunResponse}. */
export interface JsonRunResponseOptions {
  readonly headers?: KestrelHeaders;
  /** Told when the event breaks the protocol (the response is then a 500); default `console.error`. */
  readonly onProtocolError?: (error: ProtocolError) => void;
}

/**
 * Answers the JSON route (`Accept: application/json`) with exactly one terminal event, whatever its status:
 * COMPLETED, FAILED, CANCELLED and WAITING are all `200`, because each is a settled attempt, not a request error.
 *
 * The event is checked with the core schemas first. One that breaks the protocol (a COMPLETED without assistant
 * text, a missing `error` on FAILED, not a `run.completed` at all) is never sent as an outcome: the answer is
 * `500 { "error": { "code": "invalid_outcome", "message" } }`, the message naming the event's seq and field,
 * and `onProtocolError` is told.
 *
 * @example
 * // `runToCompletion`: your own code, that gets the attempt's terminal event (a RunCompletedEvent).
 * const event = await runToCompletion(input);
 * return jsonRunResponse(event);
 */
export function jsonRunResponse(event: RunCompletedEvent, options: JsonRunResponseOptions = {}): Response {
  let body: string;
  try {
    body = checkWireEvent(event, (data) => parseRunCompletedEvent(JSON.parse(data))).data;
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    (options.onProtocolError ?? logProtocolError('jsonRunResponse'))(error);
    return errorResponse(500, 'invalid_outcome', error.message, { headers: options.headers });
  }
  const headers = toHeaders(options.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(body, { status: 200, headers });
}
