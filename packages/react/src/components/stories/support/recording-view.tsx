import { createScenarioRun, type ScenarioRun } from '@kestrel/testing';
import { useState, type ReactNode } from 'react';
import { RunView } from '../../run-view.js';
import type { RecordingFile } from './recording-files.js';
import { storyNow } from './scenario-view.js';

export interface RecordingViewProps {
  readonly file: RecordingFile;
  /**
   * Shown beside the RunView with the same run (its `state.events` are the recorded messages, in order): where
   * the inspector goes.
   */
  readonly aside?: (run: ScenarioRun) => ReactNode;
}

/** RunView over a recording replayed in memory (no network, no timers), as the recorded run ended. */
export function RecordingView({ file, aside }: RecordingViewProps) {
  if (file.status === 'unreadable') {
    return (
      <p role="alert" data-recording-problem="">
        {file.name}: {file.problem}
      </p>
    );
  }
  return <ReadyRecordingView key={file.name} file={file} aside={aside} />;
}

function ReadyRecordingView({
  file,
  aside,
}: {
  file: Extract<RecordingFile, { status: 'ready' }>;
  aside?: RecordingViewProps['aside'];
}) {
  const [run] = useState(() => createScenarioRun(file.scenario, { resumed: true }));
  return (
    <div
      data-recording={file.name}
      style={{ display: 'flex', gap: '1.5rem', alignItems: 'flex-start', flexWrap: 'wrap' }}
    >
      <div style={{ flex: '1 1 24rem', minWidth: 0 }}>
        <RunView run={run} now={storyNow} />
      </div>
      {aside === undefined ? null : <div style={{ flex: '1 1 24rem', minWidth: 0 }}>{aside(run)}</div>}
    </div>
  );
}
