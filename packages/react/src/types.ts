import type { RunBinding, RunState } from '@kestrel/core';

// The actions live in the core beside the controller that implements them; components keep importing them here.
export type { RunActions, RunBinding } from '@kestrel/core';

/** What `useRun` returns: the binding, and the current state for the component that called it. */
export interface UseRunResult<P = unknown> extends RunBinding<P> {
  readonly state: RunState<P>;
}
