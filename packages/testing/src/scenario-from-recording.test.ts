import {
  createRunClient,
  parseRunRecording,
  recordRun,
  type RunHandle,
  type RunRecording,
  type RunSource,
} from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { project } from '../../core/src/client/loopback-kestrel.test-helper.js';
import type { Scenario } from './scenario.js';
import { scenarioFromRecording } from './scenario-from-recording.js';
import { scenarios } from './scenarios.js';
import { createScenarioFetch } from './scenario-handler/create-scenario-fetch.js';

/*
 * The replay property: for every shared scenario, a run recorded through the real client, turned into a scenario
 * and played through the real client again, ends in the state the recorded run ended in. The mock serves the
 * scenario in memory (createScenarioFetch); timings are short so drops and stalls resolve quickly.
 */

function clientFor(scenario: Scenario, eventDelayMs = 0) {
  return createRunClient({
    baseUrl: 'http://kestrel.test',
    fetch: createScenarioFetch({
      eventDelayMs,
      scenarios: [scenario],
      defaultScenario: scenario.name,
      keepAliveMs: 20,
      stallMs: 400,
    }),
    heartbeatTimeoutMs: 100,
    requestTimeoutMs: 2_000,
    reconnect: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5, jitter: 0 },
  });
}

/**
 * Resolves once the attempt has its outcome (or error) and its last connection closed: a server may send more
 * after `run.completed` (a protocol error), and the recording must hold it too.
 */
function finished(handle: RunHandle): Promise<void> {
  return new Promise((resolve) => {
    const stop = handle.subscribeTransport((event) => {
      // A lost connection is resumed, unless the client gives up: then an `error` follows.
      if ((event.type === 'connection-closed' && event.outcome !== 'lost') || event.type === 'error') {
        stop();
        resolve();
      }
    });
  });
}

/** Plays a scenario as an app would (answering a WAITING once), recording it; resolves with the last attempt. */
async function play(scenario: Scenario, eventDelayMs = 0): Promise<{ recording: RunRecording; last: RunSource }> {
  const handle = clientFor(scenario, eventDelayMs).start({ input: scenario.input });
  const recorder = recordRun(handle);
  await finished(handle);
  let last: RunHandle = handle;
  if (scenario.continuation !== undefined && handle.getState().status === 'WAITING') {
    last = await handle.respond(scenario.continuation.answer);
    await finished(last);
  }
  // Saved and read back, as a file dropped into recordings/ is.
  return { recording: parseRunRecording(JSON.parse(JSON.stringify(recorder.stop()))), last };
}

describe('scenarioFromRecording', () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    '%s: replaying its recording through the client ends in the recorded final state',
    async (_name, scenario) => {
      const recorded = await play(scenario);
      const replay = scenarioFromRecording(recorded.recording, { timing: 'fast' });
      const replayed = await play(replay);

      expect(project(replayed.last.getState())).toEqual(project(recorded.last.getState()));
      expect(replayed.recording.final).toEqual(recorded.recording.final);
      // The replay's own recording carries the same messages (ids aside) and the same faults.
      const shape = (recording: RunRecording) =>
        recording.entries
          .filter((entry) => entry.type !== 'request' && entry.type !== 'response' && entry.type !== 'reconnect-wait')
          .map((entry) => (entry.type === 'message' ? `${entry.event}#${entry.id}` : entry.type));
      expect(shape(replayed.recording)).toEqual(shape(recorded.recording));
    },
  );

  it.each(['completed-text', 'dropped-mid-stream', 'waiting-approval'])(
    '%s: with original timing too (the mock waits where the recorded run waited)',
    async (name) => {
      // Recorded from a mock pacing its events, so the run has gaps to keep.
      const recorded = await play(
        scenarios.find((scenario) => scenario.name === name)!,
        5,
      );
      const replay = scenarioFromRecording(recorded.recording, { timing: 'original' });
      expect(replay.steps.some((step) => step.kind === 'pause')).toBe(true);
      const replayed = await play(replay);
      expect(project(replayed.last.getState())).toEqual(project(recorded.last.getState()));
    },
  );

  it('keeps the recorded pauses with original timing, and none with fast', async () => {
    const { recording } = await play(scenarios.find((scenario) => scenario.name === 'completed-text')!);
    const slow = {
      ...recording,
      entries: recording.entries.map((entry, index) => ({ ...entry, t: index * 40 })),
    };
    const original = scenarioFromRecording(slow, { timing: 'original' });
    const fast = scenarioFromRecording(slow, { timing: 'fast' });
    expect(original.steps.filter((step) => step.kind === 'pause')).toEqual(
      Array.from({ length: fast.steps.length }, () => ({ kind: 'pause', ms: 40 })),
    );
    expect(fast.steps.filter((step) => step.kind === 'pause')).toEqual([]);
    expect(original.steps.filter((step) => step.kind !== 'pause')).toEqual(fast.steps);
  });

  it('makes the drops, the replayed duplicates and the stalls of the recording scenario steps', async () => {
    const dropped = scenarioFromRecording(
      (await play(scenarios.find((s) => s.name === 'duplicate-after-resume')!)).recording,
    );
    const source = scenarios.find((s) => s.name === 'duplicate-after-resume')!;
    expect(dropped.steps.filter((step) => step.kind === 'drop')).toEqual(
      source.steps.filter((step) => step.kind === 'drop'),
    );
    const stalled = scenarioFromRecording(
      (await play(scenarios.find((s) => s.name === 'stalled-heartbeat')!)).recording,
    );
    expect(stalled.steps.map((step) => step.kind)).toContain('stall');
    expect(stalled.group).toBe('transport');
  });

  it('refuses what is not a recording, naming the field, and a recording of two runs', () => {
    expect(() => scenarioFromRecording({ version: 1 })).toThrow(/Not a Kestrel recording: format/);
    const twoRuns = {
      version: 1,
      format: 'kestrel-recording',
      startedAt: '2026-12-01T18:00:00.000Z',
      runId: null,
      sessionId: null,
      final: { phase: 'idle', status: null, lastSeq: 0, eventCount: 0 },
      truncated: null,
      redactions: [],
      entries: [
        { t: 0, type: 'attempt', mode: 'start', runId: null, lastSeq: 0 },
        { t: 1, type: 'attempt', mode: 'start', runId: null, lastSeq: 0 },
      ],
    };
    expect(() => scenarioFromRecording(twoRuns)).toThrow(/more than one run/);
  });
});
