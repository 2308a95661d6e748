'use client'; // hooks run in client components (Next.js App Router); harmless elsewhere
import { RunView, useRun } from '@kestrel/react';
import '@kestrel/react/theme.css'; // optional: the kit's look, light and dark

export function Assistant() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  return (
    <>
      <button onClick={() => run.start('Summarise the Q3 report')}>Ask</button>
      <RunView run={run} />
    </>
  );
}
