import { RunView, useRun } from '@kestrel/react';
import { renderMarkdown } from '@kestrel/react/markdown';
import { createRoot } from 'react-dom/client';

// The drop-in view with every part, its text rendered as markdown.
function App() {
  const run = useRun({ baseUrl: '/api/kestrel' });
  return (
    <main>
      <button type="button" onClick={() => run.start('Hello')}>
        Ask
      </button>
      <RunView
        run={run}
        renderText={renderMarkdown}
        renderPayload={(payload) => <pre>{JSON.stringify(payload)}</pre>}
      />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
