import { MAX_CURSOR_LENGTH, MAX_LIST_LIMIT } from '../protocol/kestrel-routes.js';
import { parseRunListPage } from '../protocol/parse-run-list-page.js';
import { ProtocolError, formatPath } from '../protocol/protocol-error.js';
import type { RunListPage } from '../protocol/types.js';
import { toProtocolRunError } from '../run/protocol-run-error.js';
import { createHttp } from './http.js';
import { idSegment } from './resource-id.js';
import { RunClientError } from './run-client-error.js';
import { RunUsageError } from './run-usage-error.js';
import { listingErrorOf } from './session-listing-error.js';
import type { ListRunsOptions, RunClient } from './types.js';

/** The path and query of a listing page; bad parameters are refused before anything is sent. */
function listPath(options: ListRunsOptions): string {
  if (options.sessionId === 'new')
    throw new RunUsageError('invalid-id', 'listRuns needs an existing session id; "new" names no session yet');
  const path = `/v1/sessions/${idSegment('session id', options.sessionId)}/runs`;
  const query = new URLSearchParams();
  if (options.before !== undefined) {
    if (options.before === '' || options.before.length > MAX_CURSOR_LENGTH)
      throw new RangeError(
        `before must be a cursor of 1 to ${MAX_CURSOR_LENGTH} characters, got ${options.before.length}`,
      );
    query.set('before', options.before);
  }
  if (options.limit !== undefined) {
    if (!Number.isInteger(options.limit) || options.limit < 1 || options.limit > MAX_LIST_LIMIT)
      throw new RangeError(`limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${options.limit}`);
    query.set('limit', String(options.limit));
  }
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

/** Parses a listing page; anything else is a typed protocol error naming the field. */
function parsePage(text: string, sessionId: string, what: string): RunListPage {
  try {
    return parseRunListPage(JSON.parse(text), sessionId);
  } catch (cause) {
    const detail =
      cause instanceof ProtocolError
        ? {
            message: `${what}: ${cause.reason}${cause.path.length > 0 ? ` at ${formatPath(cause.path)}` : ''}`,
            path: cause.path,
            raw: text,
          }
        : { message: `${what} is not valid JSON (${(cause as Error).message})`, raw: text };
    throw new RunClientError(toProtocolRunError(detail), { cause });
  }
}

/**
 * `GET /v1/sessions/{sessionId}/runs` through `client` (its base URL, headers, fetch and limits): one page of the
 * session's runs, oldest first, validated (each `result` as a terminal event of that run, each answer as an
 * interaction answer). Bounded by the client's `requestTimeoutMs` and `maxMessageBytes`.
 *
 * A function beside the client rather than a method of it, so an app that never lists sessions (one `useRun`)
 * does not ship the listing's schemas: it is tree-shaken away (docs/performance.md, bundle size).
 *
 * @example
 * const newest = await listSessionRuns(client, { sessionId: 'ses_42', limit: 20 });
 * if (newest.nextCursor !== null) await listSessionRuns(client, { sessionId: 'ses_42', before: newest.nextCursor });
 * @throws {SessionListingError} for an unknown session, or a server without the listing (405, 501, another 404).
 * @throws {RunClientError} for every other failure (timeouts, 5xx, a malformed page naming the field).
 * @throws {RangeError} for a `limit` or `before` out of range, and {@link RunUsageError} for the id `new`, before
 *   anything is sent.
 */
export async function listSessionRuns(client: Pick<RunClient, 'options'>, list: ListRunsOptions): Promise<RunListPage> {
  const http = createHttp(client.options);

  const path = listPath(list);
  let text: string;
  try {
    text = await http.sendForText({ method: 'GET', path, accept: 'application/json', signal: list.signal });
  } catch (error) {
    const known = error instanceof RunClientError ? listingErrorOf(error, list.sessionId) : null;
    throw known ?? error;
  }
  return parsePage(text, list.sessionId, `GET ${path}`);
}
