import { localList } from './local-list.js';

/** One run this browser started, as the history page lists it. */
export interface HistoryEntry {
  readonly runId: string;
  readonly title: string;
  /** The page that shows it, with `?run=` appended. */
  readonly page: string;
  readonly startedAt: string;
}

const runs = localList<HistoryEntry>('kestrel-demo:history', (entry) => entry.runId);

export const readHistory = runs.read;

/** Adds a run once (by id), newest first. */
export const rememberRun = runs.remember;
