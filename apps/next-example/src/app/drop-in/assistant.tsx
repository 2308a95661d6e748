'use client'; // hooks run in client components (Next.js App Router); harmless elsewhere
import { isFollowing } from '@kestrel/core';
import { RunView, useRun } from '@kestrel/react';
import '@kestrel/react/theme.css'; // optional: the kit's look, light and dark

export function Assistant() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  // While a run is followed, a second start would only stop watching the first (it goes on on the server).
  const busy = isFollowing(run.state.phase);
  return (
    <>
      <button disabled={busy} onClick={() => run.start('Summarise the Q3 report')}>
        Ask
      </button>
      <RunView run={run} />
    </>
  );
}
