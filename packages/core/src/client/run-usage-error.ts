/** Why a call on a handle was refused before anything was sent. */
export type RunUsageReason = 'not-waiting' | 'answer-in-flight' | 'already-answered';

/**
 * A handle method was called when it cannot act: answering a run that is not settled WAITING, or answering the
 * same interaction twice. Nothing was sent to the server.
 */
export class RunUsageError extends Error {
  override readonly name = 'RunUsageError';
  readonly reason: RunUsageReason;
  constructor(reason: RunUsageReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
