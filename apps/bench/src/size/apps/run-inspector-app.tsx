import { useRun } from '@kestrel/react';
import { RunInspector } from '@kestrel/react/inspector';
import { createRoot } from 'react-dom/client';

// The run inspector beside the hook: what an app adds to debug runs (its own entry, outside RunView's budget).
function App() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  return (
    <main>
      <button type="button" onClick={() => run.start('Hello')}>
        Ask
      </button>
      <RunInspector run={run} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
