import type { RunCompletedEvent } from '../protocol/types.js';
import type { PayloadSchema } from './payload.js';
import { reduceRun } from './reduce-run.js';
import type { RunAction } from './run-action.js';
import { createInitialRunState, type RunState } from './run-state.js';

/**
 * The actions that settle a run from its terminal event alone (read from `/result` or a session listing). Unless it
 * directly follows the last event seen, the events between were never read: the state starts over from the result
 * alone, so nothing (finishReason included) is derived from a partial history.
 */
export function resultActions(lastSeq: number, event: RunCompletedEvent): RunAction[] {
  return event.seq === lastSeq + 1
    ? [event]
    : [{ type: 'client/start-requested', mode: 'resume', runId: event.runId, lastSeq: event.seq - 1 }, event];
}

/** The settled state of a run known only by its terminal event (e.g. an entry of a session listing). */
export function settledRunState<P>(event: RunCompletedEvent, payloadSchema?: PayloadSchema<P>): RunState<P> {
  let state = createInitialRunState<P>({ payloadSchema });
  for (const action of resultActions(state.lastSeq, event)) state = reduceRun(state, action);
  return state;
}
