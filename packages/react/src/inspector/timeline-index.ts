import { entryType, type TimelineEntry } from './timeline-entry.js';

/** The session filter: every session, the root's only, or one sub-agent session by id. */
export type SessionFilter =
  { readonly kind: 'all' } | { readonly kind: 'root' } | { readonly kind: 'session'; readonly id: string };

/** What the timeline is narrowed to. `type` is an event type, `client` for the client's happenings, or `null` for all. */
export interface TimelineFilter {
  readonly type: string | null;
  readonly session: SessionFilter;
}

export const noFilter: TimelineFilter = { type: null, session: { kind: 'all' } };

/**
 * The timeline's lookup tables, built incrementally as entries arrive: the event types and sub-agent sessions
 * seen (in order of first appearance, for the filters), the root session, and the entries the filter lets through.
 */
export class TimelineIndex {
  readonly types: string[] = [];
  readonly subSessions: string[] = [];
  rootSessionId: string | null = null;
  /** Indices of the entries the filter lets through, ascending. */
  readonly visible: number[] = [];
  readonly #filter: TimelineFilter;
  readonly #typeSet = new Set<string>();
  readonly #sessionSet = new Set<string>();
  #processed = 0;

  constructor(filter: TimelineFilter) {
    this.#filter = filter;
  }

  get filter(): TimelineFilter {
    return this.#filter;
  }

  extend(entries: readonly TimelineEntry[]): void {
    for (let index = this.#processed; index < entries.length; index++) {
      const entry = entries[index] as TimelineEntry;
      const type = entryType(entry);
      if (!this.#typeSet.has(type)) {
        this.#typeSet.add(type);
        this.types.push(type);
      }
      if (entry.kind === 'event') {
        const session = entry.event.sessionId;
        if (this.rootSessionId === null && entry.event.type === 'run.started') {
          this.rootSessionId = session;
          // A session seen before run.started named the root is the root after all.
          const early = this.subSessions.indexOf(session);
          if (early !== -1) this.subSessions.splice(early, 1);
        } else if (session !== this.rootSessionId && !this.#sessionSet.has(session)) {
          this.subSessions.push(session);
        }
        this.#sessionSet.add(session);
      }
      if (this.#passes(entry, type)) this.visible.push(index);
    }
    this.#processed = entries.length;
  }

  #passes(entry: TimelineEntry, type: string): boolean {
    const filter = this.#filter;
    if (filter.type !== null && filter.type !== type) return false;
    const session = filter.session;
    switch (session.kind) {
      case 'all':
        return true;
      case 'root':
        // The client's happenings and refused messages belong to the run as a whole, shown with the root.
        return entry.kind !== 'event' || this.rootSessionId === null || entry.event.sessionId === this.rootSessionId;
      case 'session':
        return entry.kind === 'event' && entry.event.sessionId === session.id;
      default:
        return session satisfies never;
    }
  }
}

/** The position of entry `index` among the visible ones, or of the nearest visible one before it (0 if none). */
export function positionOf(visible: readonly number[], index: number): number {
  let low = 0;
  let high = visible.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((visible[middle] as number) <= index) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
