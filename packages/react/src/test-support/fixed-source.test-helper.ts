import type { RunSource, RunState } from '@kestrel/core';

/** A source whose state never changes: for parts that only read one settled state. */
export const fixedSource = (state: RunState): RunSource => ({
  getState: () => state,
  subscribe: () => () => undefined,
});

/**
 * The state with another `finishReason`, `undefined` (not known here) included: written so it compiles whether the
 * core types the field `string | null` or `string | null | undefined`.
 */
export const withFinishReason = (state: RunState, finishReason: string | null | undefined) =>
  ({ ...state, finishReason }) as RunState;
