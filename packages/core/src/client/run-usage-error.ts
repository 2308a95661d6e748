/**
 * Why a call was refused before anything was sent: `expired` when the interaction's `expiresAt` has passed,
 * `invalid-id` for a run, session or interaction id of `.`, `..` or `''` (it would change the request's path).
 */
export type RunUsageReason = 'not-waiting' | 'answer-in-flight' | 'already-answered' | 'expired' | 'invalid-id';

/**
 * A client or handle method was called when it cannot act: answering a run that is not settled WAITING, an
 * interaction twice or after it expired, or naming a run, session or interaction by an id that cannot be put in a
 * URL path. Nothing was sent to the server.
 */
export class RunUsageError extends Error {
  override readonly name = 'RunUsageError';
  readonly reason: RunUsageReason;
  constructor(reason: RunUsageReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
