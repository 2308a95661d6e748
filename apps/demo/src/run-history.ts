/** One run this browser started, as the history page lists it. */
export interface HistoryEntry {
  readonly runId: string;
  readonly title: string;
  /** The page that shows it, with `?run=` appended. */
  readonly page: string;
  readonly startedAt: string;
}

const KEY = 'kestrel-demo:history';
const LIMIT = 50;

export function readHistory(): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
  } catch {
    return [];
  }
}

/** Adds a run once (by id), newest first. */
export function rememberRun(entry: HistoryEntry): void {
  const rest = readHistory().filter((known) => known.runId !== entry.runId);
  window.localStorage.setItem(KEY, JSON.stringify([entry, ...rest].slice(0, LIMIT)));
}
