import type { SessionConcurrency } from './session-types.js';

/** What holds the session when a message is sent: nothing, a live run (or one being sent), or a WAITING run. */
export type SessionHold = 'none' | 'live' | 'waiting';

/**
 * What `send` does with a message:
 * - `send`: now;
 * - `queue`: keep it, visibly, until the run holding the session settles (and behind messages queued before it);
 * - `reject`: refuse it, keep nothing;
 * - `cancel-then-queue`: keep it and cancel the live run; it goes once that run has settled CANCELLED;
 * - `set-aside-then-send`: a WAITING run has nothing to cancel: it stays answerable, stops holding the session,
 *   and the message goes now.
 */
export type SendDecision = 'send' | 'queue' | 'reject' | 'cancel-then-queue' | 'set-aside-then-send';

/** The concurrency policy as a pure decision (docs/sessions.md#one-live-run-at-a-time). */
export function decideSend(concurrency: SessionConcurrency, hold: SessionHold, queuedAhead: boolean): SendDecision {
  if (hold === 'none' && !queuedAhead) return 'send';
  switch (concurrency) {
    case 'reject':
      return 'reject';
    case 'queue':
      return 'queue';
    case 'cancel-previous':
      if (hold === 'live') return 'cancel-then-queue';
      return hold === 'waiting' ? 'set-aside-then-send' : 'queue';
    default:
      return concurrency satisfies never;
  }
}
