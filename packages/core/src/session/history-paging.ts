import type { RunSummary } from '../protocol/types.js';
import type { SessionHistoryStatus } from './session-types.js';

/** What a listing page is merged as: `older` runs go before everything; `newest` ones find their place by run id. */
export type PageMode = 'older' | 'newest';

/**
 * Merges a page (oldest first) into the entries, by run id: a run already shown stays as it is (its entry keeps
 * its identity); a new one of an `older` page goes before every entry; a new one of the `newest` page goes right
 * after the run listed before it, else before the first run listed after it, else before the first message that
 * has no run yet (queued or being sent: they are the newest). Returns the entries and the ones it made.
 */
export function mergePage<T extends { readonly runId: string | null }>(
  entries: readonly T[],
  runs: readonly RunSummary[],
  mode: PageMode,
  make: (run: RunSummary) => T,
): { readonly entries: T[]; readonly added: T[] } {
  const next = [...entries];
  const added: T[] = [];
  const indexOf = (runId: string) => next.findIndex((entry) => entry.runId === runId);
  let after = -1;
  let olderAt = 0;
  for (const [position, run] of runs.entries()) {
    const known = indexOf(run.runId);
    if (known >= 0) {
      after = known;
      continue;
    }
    const entry = make(run);
    let at: number;
    if (mode === 'older') at = olderAt++;
    else if (after >= 0) at = after + 1;
    else {
      const later = runs
        .slice(position + 1)
        .map((other) => indexOf(other.runId))
        .find((index) => index >= 0);
      const pending = next.findIndex((other) => other.runId === null);
      at = later ?? (pending >= 0 ? pending : next.length);
    }
    next.splice(at, 0, entry);
    added.push(entry);
    after = at;
  }
  return { entries: next, added };
}

/**
 * The most listing pages one refresh reads: the newest, then older ones until the pages reach the runs shown. A
 * bound, so a listing that hands out cursors without end cannot keep a refresh going; past it, the runs between the
 * oldest page read and the thread stay unread (1,000 runs at the default page size).
 */
export const MAX_CATCH_UP_PAGES = 50;

/**
 * Whether merging `runs` (the newest pages, oldest first) could leave runs out between them and the runs shown.
 * `anchor` is the newest run of the last newest page merged: every run the listing had up to it is shown, so the
 * read has reached the thread once it holds the anchor. A run this tab sent since proves nothing: another tab's runs
 * may sit just below it. With no anchor (nothing merged from the listing: a conversation started here), the oldest run
 * shown is the conversation's first, so reading it reaches the start. Nothing shown: only a thread that says it holds
 * every run reads back.
 */
export function leavesGap(
  entries: readonly { readonly runId: string | null }[],
  runs: readonly RunSummary[],
  history: SessionHistoryStatus,
  anchor: string | null,
): boolean {
  const reached = anchor ?? entries.find((entry) => entry.runId !== null)?.runId;
  if (reached !== undefined) return !runs.some((run) => run.runId === reached);
  return history === 'complete';
}

/** The history status once a page of older runs (or the first page) has arrived. */
export function historyAfter(nextCursor: string | null): SessionHistoryStatus {
  return nextCursor === null ? 'complete' : 'more';
}
