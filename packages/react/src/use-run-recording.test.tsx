import { recordingClient, type RecordingEntry, type RunRecorder } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KestrelProvider } from './kestrel-provider.js';
import { describeModes } from './test-support/describe-modes.test-helper.js';
import { startLoopbackKestrel, type LoopbackKestrel } from './test-support/loopback-kestrel.test-helper.js';
import { createProbe, RunProbe } from './test-support/run-probe.test-helper.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

describeModes('recording what useRun drives, through recordingClient', ({ options }) => {
  it('records the run useRun starts from its first request, and the answer it gives, in one recording', async () => {
    const scenario = getScenario('waiting-approval');
    const recorders: RunRecorder[] = [];
    const client = recordingClient(kestrel.client({ scenario: scenario.name }), (recorder) => recorders.push(recorder));
    const probe = createProbe();
    render(
      <KestrelProvider client={client}>
        <RunProbe probe={probe} />
      </KestrelProvider>,
      options,
    );
    act(() => probe.current?.start(scenario.input));
    await waitFor(() => expect(screen.getByTestId('run').dataset.status).toBe('WAITING'));
    await act(() => probe.current!.respond(scenario.continuation!.answer));
    await waitFor(() => expect(screen.getByTestId('run').dataset.status).toBe('COMPLETED'));

    expect(recorders).toHaveLength(1); // StrictMode never starts (or records) a run twice
    const recording = recorders[0]!.stop();
    expect(recording.final).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
    expect(recording.runId).toBe(probe.current!.state.runId);
    const sent = recording.entries.filter(
      (entry): entry is Extract<RecordingEntry, { type: 'request' }> => entry.type === 'request',
    );
    expect(sent.map((entry) => entry.method)).toEqual(['POST', 'POST']);
    expect(sent[1]!.path).toMatch(/\/interactions\/int_approval$/);
  });
});
