import { useEffect, useState } from 'react';
import { rememberRun } from './run-history.js';

/** The `?run=` of the page as it was loaded: the run to re-attach to after a reload. */
export function useInitialRunId(): string | null {
  const [runId] = useState(() => new URLSearchParams(window.location.search).get('run'));
  return runId;
}

/**
 * Keeps the current run's id in the URL (so a reload resumes it, or brings back its prompt) and in the history.
 * `title` describes the run in the history list.
 */
export function useRunIdInUrl(runId: string | null, title: string): void {
  useEffect(() => {
    if (runId === null) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get('run') === runId) return;
    url.searchParams.set('run', runId);
    window.history.replaceState(null, '', url);
    rememberRun({ runId, title, page: url.pathname, startedAt: new Date().toISOString() });
    // Only a new run id matters; the title is read when it appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId]);
}
