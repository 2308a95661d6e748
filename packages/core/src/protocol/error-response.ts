import { toHeaders, type KestrelHeaders } from './kestrel-headers.js';
import type { RequestErrorBody } from './types.js';

/** One reason a request body was refused, pointing into the body. */
export interface RequestIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** A JSON response that no cache keeps: what every Kestrel route answers with, outcome or error. */
export function jsonResponse(
  status: number,
  body: unknown,
  init: { headers?: KestrelHeaders | undefined } = {},
): Response {
  const headers = toHeaders(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Answers a request that could not be served (bad body, unknown route, auth, upstream unreachable) with the
 * protocol's error body, `{ "error": { "code", "message", "issues"? } }` (see docs/protocol.md, "Request errors").
 * It is not a run outcome: a client shows it as an HTTP error, never as FAILED.
 *
 * @example
 * if (!session) return errorResponse(404, 'session_not_found', `No session "${id}"`);
 */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  init: { headers?: KestrelHeaders | undefined; issues?: readonly RequestIssue[] } = {},
): Response {
  const body: RequestErrorBody = {
    error: init.issues === undefined ? { code, message } : { code, message, issues: init.issues },
  };
  return jsonResponse(status, body, { headers: init.headers });
}
