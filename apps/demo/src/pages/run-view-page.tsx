import { recordingClient, type RunRecorder } from '@kestrel/core';
import { RunView, useRun } from '@kestrel/react';
import { RunInspector } from '@kestrel/react/inspector';
import { invoiceSchema, scenarios, type Scenario, type ScenarioGroup } from '@kestrel/testing';
import { useId, useState } from 'react';
import { runClient } from '../client.js';
import { InvoiceTable } from '../invoice-table.js';
import { scenarioInput } from '../scenario-input.js';
import { useInitialRunId, useRunIdInUrl } from '../use-run-id-in-url.js';

const groupTitles: Record<ScenarioGroup, string> = {
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  waiting: 'Waiting for you',
  activity: 'Activity',
  transport: 'Connection trouble',
  protocol: 'Protocol errors',
};
const groups = Object.keys(groupTitles) as ScenarioGroup[];

/** The drop-in `<RunView>` over any shared scenario. */
export function RunViewPage() {
  const pickerId = useId();
  const initialRunId = useInitialRunId();
  const [scenario, setScenario] = useState<Scenario>(() => {
    const named = new URLSearchParams(window.location.search).get('scenario');
    return scenarios.find((candidate) => candidate.name === named) ?? (scenarios[0] as Scenario);
  });
  // "Inspect": record the runs started from now on and show them in the run inspector, with a download.
  const [inspecting, setInspecting] = useState(() => new URLSearchParams(window.location.search).has('inspect'));
  const [recorder, setRecorder] = useState<RunRecorder | null>(null);
  // Each run started from now on is recorded from its first request; the inspector shows the latest recorder, and
  // the client stops the one before it (maxRecorders: 1), so only the run on screen is still being recorded.
  const [client] = useState(() =>
    recordingClient(runClient, setRecorder, { recording: inspecting ? 'on' : 'off', maxRecorders: 1 }),
  );
  const run = useRun({ client, payloadSchema: invoiceSchema, resumeRunId: initialRunId });
  useRunIdInUrl(run.state.runId, scenario.title);

  return (
    <main className="page">
      <h1>Drop-in RunView</h1>
      <form
        className="picker"
        onSubmit={(event) => {
          event.preventDefault();
          // The picker's choice goes in the URL with the run id, so a reload shows both again.
          const url = new URL(window.location.href);
          url.searchParams.set('scenario', scenario.name);
          url.searchParams.delete('run');
          window.history.replaceState(null, '', url);
          run.start(scenarioInput(scenario));
        }}
      >
        <label htmlFor={pickerId}>Scenario</label>
        <select
          id={pickerId}
          name="scenario"
          value={scenario.name}
          onChange={(event) =>
            setScenario(scenarios.find((candidate) => candidate.name === event.target.value) ?? scenario)
          }
        >
          {groups.map((group) => (
            <optgroup key={group} label={groupTitles[group]}>
              {scenarios
                .filter((candidate) => candidate.group === group)
                .map((candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.title}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        <button type="submit">Start run</button>
        <label className="toggle">
          <input
            type="checkbox"
            checked={inspecting}
            onChange={(event) => {
              client.setRecording(event.target.checked ? 'on' : 'off');
              setInspecting(event.target.checked);
            }}
          />{' '}
          Inspect (record runs)
        </label>
        <p className="hint">
          {scenario.description} <q>{scenario.input}</q>
        </p>
      </form>
      <RunView run={run} className="run" renderPayload={(invoice) => <InvoiceTable invoice={invoice} />} />
      {inspecting && <RunInspector run={run} recording={recorder ?? undefined} className="inspector" />}
    </main>
  );
}
