import { toHeaders, toWireEvent, type KestrelHeaders, type RunCompletedEvent } from '@kestrel/core';

/**
 * Answers the JSON route (`Accept: application/json`) with exactly one terminal event, whatever its status:
 * COMPLETED, FAILED, CANCELLED and WAITING are all `200`, because each is a settled attempt, not a request error.
 *
 * @example
 * const event = await kestrel.runToCompletion(input);
 * return jsonRunResponse(event);
 */
export function jsonRunResponse(event: RunCompletedEvent, init: { headers?: KestrelHeaders } = {}): Response {
  const headers = toHeaders(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(toWireEvent(event)), { status: 200, headers });
}
