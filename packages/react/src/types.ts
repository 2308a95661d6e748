import type { RunBinding, RunState, SessionConcurrency, SessionController, SessionState } from '@kestrel/core';

// The actions live in the core beside the controller that implements them; components keep importing them here.
export type { RunActions, RunBinding } from '@kestrel/core';

/** What `useRun` returns: the binding, and the current state for the component that called it. */
export interface UseRunResult<P = unknown> extends RunBinding<P> {
  readonly state: RunState<P>;
}

/**
 * What the session parts read and act on: a session controller's state and actions, and the policy it sends
 * with (so the composer can say what a message sent now would do). `useSession` returns one.
 */
export interface SessionBinding<P = unknown> extends Pick<
  SessionController<P>,
  'getState' | 'getServerState' | 'subscribe' | 'send' | 'loadOlder' | 'refresh' | 'retry' | 'withdraw' | 'cancel'
> {
  /** The controller's policy for a message sent while a run is live or WAITING. Read as `queue` when absent. */
  readonly concurrency?: SessionConcurrency;
}

/** What `useSession` returns: the binding, and the current session state for the component that called it. */
export interface UseSessionResult<P = unknown> extends SessionBinding<P> {
  readonly state: SessionState<P>;
}
