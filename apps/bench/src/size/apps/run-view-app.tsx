import { RunView, useRun } from '@kestrel/react';
import { createRoot } from 'react-dom/client';

// The drop-in view with every part: status, activity, assistant text, interaction prompt, payload, error.
function App() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  return (
    <main>
      <button type="button" onClick={() => run.start('Hello')}>
        Ask
      </button>
      <RunView run={run} renderPayload={(payload) => <pre>{JSON.stringify(payload)}</pre>} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
