import type { ClientAction, RunError, RunEvent, RunState } from '@kestrel/core';
import { protocolErrorAction } from '@kestrel/core/internal';
import type { TimelineEntry } from './timeline-entry.js';

/** The reducer action that leads to `error`, so a replayed timeline ends in the same error. */
export function actionForError(error: RunError): ClientAction {
  switch (error.kind) {
    case 'transport':
      return { type: 'client/connection-lost', message: error.message };
    case 'truncated':
      return { type: 'client/stream-ended' };
    case 'timeout':
      return { type: 'client/timed-out', message: error.message, timeoutMs: error.timeoutMs };
    case 'http':
      return { type: 'client/http-error', status: error.status, code: error.code, message: error.message };
    case 'protocol':
      return protocolErrorAction(error);
    default:
      return error satisfies never;
  }
}

/**
 * The timeline of a run without a recording: the events its state kept, in order, and the error it ended in (the
 * client's own happenings are known only to a recording). Times are those at which this inspector saw each event
 * arrive; events already there when it started have none. Grows in place as the run does.
 */
export class StateTimeline {
  readonly entries: TimelineEntry[] = [];
  /** Changes when the timeline started over (a new run): what was built from the old one no longer applies. */
  generation = 0;
  #first: RunEvent | undefined;
  #eventCount = 0;
  #error: RunError | null = null;
  readonly #now: () => number;
  readonly #origin: number;
  #seenOnce = false;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#origin = now();
  }

  /** Takes in the run's current state; returns whether the timeline changed. */
  update(state: RunState): boolean {
    const events = state.events;
    const startedOver =
      events.length < this.#eventCount ||
      (this.#eventCount > 0 && events.at(0) !== this.#first) ||
      (this.#error !== null && state.error !== this.#error);
    if (startedOver) this.#reset();
    const before = this.entries.length;
    // What was there before this inspector looked has no arrival time it could know.
    const atMs = this.#seenOnce ? Math.round(this.#now() - this.#origin) : null;
    for (let index = this.#eventCount; index < events.length; index++) {
      this.entries.push({ kind: 'event', event: events.at(index) as RunEvent, atMs, bytes: null });
    }
    this.#eventCount = events.length;
    this.#first = events.at(0);
    if (state.phase === 'error' && state.error !== null && this.#error === null) {
      this.#error = state.error;
      this.entries.push({
        kind: 'client',
        happening: { type: 'error', error: state.error },
        atMs,
        action: actionForError(state.error),
      });
    }
    this.#seenOnce = true;
    return startedOver || this.entries.length !== before;
  }

  #reset(): void {
    this.entries.length = 0;
    this.generation += 1;
    this.#first = undefined;
    this.#eventCount = 0;
    this.#error = null;
  }
}
