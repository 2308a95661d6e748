import type { RunError, RunState } from '../run/run-state.js';
import type { SessionEntryStatus } from './session-types.js';

/** Where a message is before its run speaks for it: kept, handed to the run, or refused without a run. */
export type Delivery = 'queued' | 'sent' | 'failed';

/** A start the server refused, before any run, with this status and error code. */
const refusedStart = (state: RunState<unknown>, status: number, code: string): boolean =>
  state.phase === 'error' &&
  state.runId === null &&
  state.error?.kind === 'http' &&
  state.error.status === status &&
  state.error.code === code;

/** A start the server refused because the session already has a live run (docs/protocol.md#sessions). */
export const isRunInProgress = (state: RunState<unknown>): boolean => refusedStart(state, 409, 'run_in_progress');

/** A start the server refused because it knows no session by that id (expired, deleted, or mistyped). */
export const isSessionNotFound = (state: RunState<unknown>): boolean => refusedStart(state, 404, 'session_not_found');

/** An entry's status from its delivery and its run's state (see `SessionEntryStatus`). */
export function entryStatus(delivery: Delivery, state: RunState<unknown>): SessionEntryStatus {
  if (delivery === 'queued') return 'queued';
  if (delivery === 'failed') return 'failed-to-send';
  switch (state.phase) {
    case 'idle':
      return 'sending';
    case 'connecting':
      return state.runId === null ? 'sending' : 'live';
    case 'streaming':
    case 'reconnecting':
      return 'live';
    case 'settled':
      return state.status === 'WAITING' ? 'waiting' : 'settled';
    case 'error':
      // Without a run id the POST itself failed: no run exists. With one, the run goes on without this page.
      return state.runId === null ? 'failed-to-send' : 'interrupted';
    case 'detached':
      return 'interrupted';
    default:
      return state satisfies never;
  }
}

/** The error an entry shows for `failed-to-send`; null otherwise. */
export function entryError(
  status: SessionEntryStatus,
  state: RunState<unknown>,
  refused: RunError | null,
): RunError | null {
  if (status !== 'failed-to-send') return null;
  return refused ?? state.error;
}
