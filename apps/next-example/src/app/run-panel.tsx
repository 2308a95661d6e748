'use client';
import { RunView, useRun } from '@kestrel/react';
import Link from 'next/link';

/** `<RunView>` on a run started from a form; once it settles, a link to its server-rendered result page. */
export function RunPanel() {
  const run = useRun(); // the provider's client: this app's /api/kestrel proxy route
  const { state } = run;
  return (
    <section aria-label="Run">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const input = new FormData(event.currentTarget).get('input');
          if (typeof input === 'string' && input.trim() !== '') run.start(input);
        }}
      >
        <label>
          Ask <input name="input" defaultValue="Summarise the Q3 report" size={60} />
        </label>{' '}
        <button type="submit">Run</button>
      </form>
      <RunView run={run} />
      {state.phase === 'settled' && state.runId !== null && (
        <p>
          <Link href={`/runs/${encodeURIComponent(state.runId)}`}>Open the result page of this run</Link> (prefetched on
          the server)
        </p>
      )}
    </section>
  );
}
