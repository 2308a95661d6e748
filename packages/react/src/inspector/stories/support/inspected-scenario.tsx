import type { RunBinding, RunRecording } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { createStoryClient } from '../../../components/stories/support/live-scenario.js';
import { useState } from 'react';
import { RunView } from '../../../components/run-view.js';
import { useRun } from '../../../use-run.js';
import { RunInspector } from '../../run-inspector.js';

/** The inspector beside the view of the same run, as an app would lay them out. */
export function Beside({ run, recording }: { run: RunBinding; recording?: RunRecording | undefined }) {
  return (
    <div style={sideBySide}>
      <RunView run={run} />
      <RunInspector run={run} recording={recording} />
    </div>
  );
}

/** Two columns where there is room, one on a phone. */
export const sideBySide = {
  display: 'grid',
  gap: '1rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 22rem), 1fr))',
  alignItems: 'start',
} as const;

/** A live run: `useRun` and the real run client over an in-memory Kestrel, with the inspector beside it. */
export function LiveInspected({ scenario: name, eventDelayMs = 40 }: { scenario: string; eventDelayMs?: number }) {
  const scenario = getScenario(name);
  const [client] = useState(() => createStoryClient(eventDelayMs));
  const run = useRun({ client });
  return (
    <div style={{ display: 'grid', gap: '1rem' }}>
      <p>
        <button type="button" onClick={() => run.start(`[scenario:${name}] ${scenario.input}`)}>
          Play “{scenario.title}”
        </button>
      </p>
      <div style={sideBySide}>
        <RunView run={run} />
        <RunInspector run={run} />
      </div>
    </div>
  );
}
