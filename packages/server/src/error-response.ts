import { toHeaders, type KestrelHeaders, type RequestErrorBody } from '@kestrel/core';

/**
 * Answers a request that could not be served (bad body, unknown route, auth, upstream unreachable) with
 * PROTOCOL.md's error body. It is not a run outcome: a client shows it as an HTTP error, never as FAILED.
 *
 * @example
 * if (!session) return errorResponse(404, 'session_not_found', `No session "${id}"`);
 */
export function errorResponse(status: number, code: string, message: string, init: { headers?: KestrelHeaders } = {}): Response {
  const body: RequestErrorBody = { error: { code, message } };
  const headers = toHeaders(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { status, headers });
}
