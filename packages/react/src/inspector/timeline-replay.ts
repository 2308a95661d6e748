import { createInitialRunState, reduceRun, type RunAction, type RunState } from '@kestrel/core';
import type { TimelineEntry } from './timeline-entry.js';

/** A checkpoint every this many entries: selecting any entry reduces at most this many more. */
const CHECKPOINT_EVERY = 256;

/** What the inspector derives from the whole timeline, for the latest attempt. */
export interface DerivedFacts {
  /** Entry index of the root `message.received` that opened the owned interval; `null` if none was seen. */
  readonly intervalOpenedAt: number | null;
  /** Entry index of the `agent.idle` that closed it; `null` while open or never opened. */
  readonly intervalClosedAt: number | null;
  /** Entry index of the root `turn/end` whose reason is the run's `finishReason`; `null` if none set it. */
  readonly finishReasonSetAt: number | null;
}

const noFacts: DerivedFacts = { intervalOpenedAt: null, intervalClosedAt: null, finishReasonSetAt: null };

/** The reducer steps one entry stands for: usually one action, none for a happening that changes nothing. */
function actionsOf(state: RunState, entry: TimelineEntry): RunAction[] {
  if (entry.kind === 'invalid') return []; // the protocol error it caused is an entry of its own
  if (entry.kind === 'client') return entry.action === null ? [] : [entry.action];
  const event = entry.event;
  // A timeline without the client's own happenings (a run state's events) has no marker for an answer's new
  // attempt: a later attempt's run.started after a settled one means the client responded.
  if (event.type === 'run.started' && state.phase === 'settled' && event.attempt !== state.attempt) {
    return [{ type: 'client/start-requested', mode: 'respond' }, event];
  }
  return [event];
}

function step(state: RunState, entry: TimelineEntry): RunState {
  let next = state;
  for (const action of actionsOf(next, entry)) next = reduceRun(next, action);
  return next;
}

/**
 * Replays a timeline through the kit's own pure reducer, incrementally: `extend` takes in entries appended since
 * the last call (a live run grows), keeps a checkpoint every 256 entries and the derived facts, so the state after
 * any entry costs at most 256 reductions, and stepping forward one entry costs one.
 */
export class TimelineReplay {
  readonly #checkpoints: RunState[] = [createInitialRunState()];
  #processed = 0;
  #state: RunState = createInitialRunState();
  #facts: DerivedFacts = noFacts;
  #last: { index: number; state: RunState } | null = null;
  #entries: readonly TimelineEntry[] = [];

  /** Takes in the timeline; entries before the ones already processed must be the same ones. */
  extend(entries: readonly TimelineEntry[]): void {
    this.#entries = entries;
    for (let index = this.#processed; index < entries.length; index++) {
      const entry = entries[index] as TimelineEntry;
      const before = this.#state;
      const after = step(before, entry);
      this.#facts = nextFacts(this.#facts, before, after, entry, index);
      this.#state = after;
      if ((index + 1) % CHECKPOINT_EVERY === 0) this.#checkpoints.push(after);
    }
    this.#processed = entries.length;
  }

  /** How many entries were taken in. */
  get length(): number {
    return this.#processed;
  }

  /** The state after the last entry. */
  get finalState(): RunState {
    return this.#state;
  }

  get facts(): DerivedFacts {
    return this.#facts;
  }

  /** The state the reducer produced after the entry at `index` (0-based). */
  stateAfter(index: number): RunState {
    if (index < 0 || index >= this.#processed) {
      throw new RangeError(`no timeline entry at index ${index} (the timeline has ${this.#processed})`);
    }
    const last = this.#last;
    let from: number;
    let state: RunState;
    const checkpoint = Math.floor((index + 1) / CHECKPOINT_EVERY);
    if (last !== null && last.index <= index && last.index + 1 >= checkpoint * CHECKPOINT_EVERY) {
      from = last.index + 1;
      state = last.state;
    } else {
      from = checkpoint * CHECKPOINT_EVERY;
      state = this.#checkpoints[checkpoint] as RunState;
    }
    for (let i = from; i <= index; i++) state = step(state, this.#entries[i] as TimelineEntry);
    this.#last = { index, state };
    return state;
  }
}

function nextFacts(
  facts: DerivedFacts,
  before: RunState,
  after: RunState,
  entry: TimelineEntry,
  index: number,
): DerivedFacts {
  if (entry.kind !== 'event' || after.phase === 'error' || after.lastSeq === before.lastSeq) return facts;
  const event = entry.event;
  switch (event.type) {
    case 'run.started':
      // Each attempt owns its own interval: its run.started starts the facts over.
      return noFacts;
    case 'message.received':
      return before.interval === 'before' && after.interval === 'open' ? { ...facts, intervalOpenedAt: index } : facts;
    case 'agent.idle':
      return before.interval === 'open' && after.interval === 'closed' ? { ...facts, intervalClosedAt: index } : facts;
    case 'turn/end': {
      // The reducer's rule (docs/protocol.md#finishreason): a root turn/end inside the open interval; the last wins.
      const counts = before.interval === 'open' && before.sessionId !== null && event.sessionId === before.sessionId;
      return counts ? { ...facts, finishReasonSetAt: index } : facts;
    }
    default:
      return facts;
  }
}
