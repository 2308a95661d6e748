import type { RunClientError } from './run-client-error.js';

/**
 * Why a session listing has no page (docs/protocol.md#a-sessions-runs):
 * - `session-not-found`: a 404 with code `session_not_found`: no session has this id;
 * - `unavailable`: the server has no listing (405, 501, or a 404 with another code); keep the runs started here.
 */
export type SessionListingReason = 'session-not-found' | 'unavailable';

/**
 * `listSessionRuns` got an answer that is not a page, but is a known one: the session does not exist, or the server
 * does not list sessions. Every other failure (timeouts, 5xx, a malformed page) is a {@link RunClientError}.
 *
 * @example
 * try { await listSessionRuns(client, { sessionId }) } catch (e) { if (e instanceof SessionListingError && e.reason === 'unavailable') showLocalOnly() }
 */
export class SessionListingError extends Error {
  override readonly name = 'SessionListingError';
  readonly reason: SessionListingReason;
  readonly sessionId: string;
  /** The HTTP status (404, 405, 501). */
  readonly status: number;
  /** The `error.code` of the server's body, when it had one. */
  readonly code: string | null;

  constructor(reason: SessionListingReason, sessionId: string, cause: RunClientError) {
    super(
      reason === 'session-not-found'
        ? `Session "${sessionId}" was not found (HTTP 404 session_not_found)`
        : `This server does not list a session's runs (${cause.message}); only runs started here are known`,
      { cause },
    );
    this.reason = reason;
    this.sessionId = sessionId;
    this.status = cause.status ?? 0;
    this.code = cause.code;
  }
}

/** The listing answers that are not failures of the request but facts about the session or the server. */
export function listingErrorOf(error: RunClientError, sessionId: string): SessionListingError | null {
  if (error.kind !== 'http') return null;
  if (error.status === 404) {
    return new SessionListingError(
      error.code === 'session_not_found' ? 'session-not-found' : 'unavailable',
      sessionId,
      error,
    );
  }
  if (error.status === 405 || error.status === 501) return new SessionListingError('unavailable', sessionId, error);
  return null;
}
