import { SessionComposer } from './session-composer.js';
import { SessionJumpToLatest } from './session-jump-to-latest.js';
import { SessionLoadOlder } from './session-load-older.js';
import { SessionRoot } from './session-root.js';
import { SessionStatus } from './session-status.js';
import { SessionThread } from './session-thread.js';

/**
 * The parts of a conversation view, Radix style: `Session.Root` provides the session, every other part reads it.
 * `SessionView` is `Session.Root` with all of them in a default order.
 *
 * @example
 * <Session.Root session={session}>
 *   <Session.Status className="sr-only" />
 *   <Session.Thread><Session.LoadOlder /></Session.Thread>
 *   <Session.JumpToLatest />
 *   <Session.Composer />
 * </Session.Root>
 */
export const Session = {
  Root: SessionRoot,
  Status: SessionStatus,
  Thread: SessionThread,
  LoadOlder: SessionLoadOlder,
  JumpToLatest: SessionJumpToLatest,
  Composer: SessionComposer,
} as const;
