import { useRun } from '@kestrel/react';
import { createRoot } from 'react-dom/client';

// The hook path: one component on useRun, drawing the phase and the draft.
function App() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  return (
    <main data-phase={run.state.phase}>
      <button type="button" onClick={() => run.start('Hello')}>
        Ask
      </button>
      <p>{run.state.phase === 'settled' ? run.state.output?.assistantText : run.state.draftText}</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
