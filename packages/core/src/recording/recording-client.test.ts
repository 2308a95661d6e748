import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLoopbackKestrel, testClient, type LoopbackKestrel } from '../client/loopback-kestrel.test-helper.js';
import { createRunController } from '../controller/create-run-controller.js';
import { createSessionController } from '../session/create-session-controller.js';
import { recordingClient } from './recording-client.js';
import type { RecordingEntry, RunRecorder, RunRecording } from './recording-types.js';
import { redactInputs } from './redact-recording.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const requests = (recording: RunRecording) =>
  recording.entries
    .filter((entry): entry is Extract<RecordingEntry, { type: 'request' }> => entry.type === 'request')
    .map((entry) => `${entry.method} ${entry.path.replace(/(runs|sessions)\/(?!new\/)[^/]+/, '$1/:id')}`);

/** A run settled WAITING on the approval scenario, and a recording client (with its recorders) to resume it with. */
async function waitingRunAndRecordingClient() {
  const scenario = getScenario('waiting-approval');
  const waiting = await testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input }).result;
  const recorders: RunRecorder[] = [];
  const client = recordingClient(testClient(kestrel), (recorder) => recorders.push(recorder));
  return { scenario, waiting, recorders, client };
}

const settled = (recorder: RunRecorder) => recorder.recording().final.phase === 'settled';
async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 500) throw new Error('gave up after 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('recordingClient records what a controller drives, with no handle in the app’s hands', () => {
  it('records a run controller’s run (what useRun is built on) from its first request, across the answer it gives', async () => {
    const scenario = getScenario('waiting-approval');
    const recorders: RunRecorder[] = [];
    const client = recordingClient(
      testClient(kestrel, { scenario: scenario.name }),
      (recorder) => recorders.push(recorder),
      {
        redact: redactInputs,
      },
    );
    const run = createRunController({ client });
    run.start(scenario.input);
    await until(() => run.getState().status === 'WAITING');
    await run.respond(scenario.continuation!.answer);
    await until(() => run.getState().status === 'COMPLETED');

    expect(recorders).toHaveLength(1);
    const recording = recorders[0]!.stop();
    expect(recording).toMatchObject({
      runId: run.getState().runId,
      final: { phase: 'settled', status: 'COMPLETED', lastSeq: run.getState().lastSeq },
      redactions: ['inputs'],
    });
    expect(requests(recording)).toEqual([
      'POST /v1/sessions/new/runs',
      'POST /v1/sessions/:id/interactions/int_approval',
    ]);
  });

  it('records each run a session controller sends, one recorder per run', async () => {
    const recorders: RunRecorder[] = [];
    const client = recordingClient(testClient(kestrel), (recorder) => recorders.push(recorder));
    const session = createSessionController({ client });
    session.start();
    session.send('first');
    await until(() => recorders.length === 1 && settled(recorders[0]!));
    session.send('second');
    await until(() => recorders.length === 2 && settled(recorders[1]!));
    session.dispose();

    const [first, second] = recorders.map((recorder) => recorder.stop());
    expect(requests(first!)).toEqual(['POST /v1/sessions/new/runs']);
    expect(requests(second!)).toEqual(['POST /v1/sessions/:id/runs']);
    expect(second!.sessionId).toBe(first!.sessionId);
    expect(second!.runId).not.toBe(first!.runId);
  });

  it('records nothing while off, and the runs started or resumed once it is switched on', async () => {
    const recorders: RunRecorder[] = [];
    const client = recordingClient(testClient(kestrel), (recorder) => recorders.push(recorder), { recording: 'off' });
    const unrecorded = client.start({ input: 'not recorded' });
    await unrecorded.result;
    expect(recorders).toEqual([]);

    client.setRecording('on');
    expect(client.recording).toBe('on');
    const resumed = client.resume({ runId: unrecorded.getState().runId! });
    await resumed.result;
    expect(recorders).toHaveLength(1);
    expect(requests(recorders[0]!.stop())).toEqual(['GET /v1/runs/:id/events']);
    expect(await client.fetchResult(unrecorded.getState().runId!)).toMatchObject({ type: 'run.completed' });
  });

  it('an onRecorder that throws costs neither the run nor the process: start returns the handle, the error is reported on console.error', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = new Error('the app’s onRecorder broke');
    try {
      const handle = recordingClient(testClient(kestrel), () => {
        throw broken;
      }).start({ input: 'still runs' });
      expect((await handle.result).output.status).toBe('COMPLETED');
      expect(reported).toHaveBeenCalledWith(expect.stringContaining('onRecorder threw'), broken);
    } finally {
      reported.mockRestore();
    }
  });

  it('refuses a bad option when it is made, before any run could start and be lost', () => {
    const client = testClient(kestrel);
    for (const maxRecorders of [0, 1.5, Number.NaN])
      expect(() => recordingClient(client, () => undefined, { maxRecorders })).toThrow(/recordingClient: maxRecorders/);
    expect(() => recordingClient(client, () => undefined, { maxBytes: 0 })).toThrow(RangeError);
    expect(() => recordingClient(client, () => undefined, { maxBytes: 0 })).toThrow(/recordingClient: maxBytes/);
    // @ts-expect-error -- a JavaScript caller's boolean is refused, not read as on or off
    expect(() => recordingClient(client, () => undefined, { recording: true })).toThrow(TypeError);
    expect(() => recordingClient(client, () => undefined).setRecording('yes' as 'on')).toThrow(/'on' or 'off'/);
  });
});

describe('recordingClient’s latest recorder is the run the app is looking at, and its recordings are bounded', () => {
  it('a session’s history (runs resumed from their settled results, no traffic) makes no recorder; the run sent next does', async () => {
    const seeded = await startLoopbackKestrel({ seed: [{ sessionId: 'ses_seed', runs: 25 }] });
    try {
      const recorders: RunRecorder[] = [];
      const client = recordingClient(testClient(seeded), (recorder) => recorders.push(recorder));
      const session = createSessionController({ client, sessionId: 'ses_seed' });
      session.start();
      await until(() => session.getState().history === 'more');
      await session.loadOlder();
      expect(session.getState().entries.length).toBe(25);
      expect(recorders).toEqual([]);
      session.send('hello');
      await until(() => recorders.length === 1 && settled(recorders[0]!));
      session.dispose();
      expect(requests(recorders[0]!.recording())).toEqual(['POST /v1/sessions/:id/runs']);
    } finally {
      await seeded.close();
    }
  });

  it('a WAITING run resumed from its settled result is recorded once it is answered, the answer included', async () => {
    const { scenario, waiting, recorders, client } = await waitingRunAndRecordingClient();
    const handle = client.resume({ runId: waiting.runId, result: waiting });
    expect(recorders).toEqual([]);
    const next = await handle.respond(scenario.continuation!.answer);
    await next.result;
    expect(recorders).toHaveLength(1);
    expect(requests(recorders[0]!.stop())).toEqual(['POST /v1/sessions/:id/interactions/int_approval']);
  });

  it("a history entry answered after setRecording('off') makes no recorder and leaves the live one recording", async () => {
    const { scenario, waiting, recorders, client } = await waitingRunAndRecordingClient();
    const entry = client.resume({ runId: waiting.runId, result: waiting });
    const live = client.start({ input: 'still recording' });
    client.setRecording('off');
    const next = await entry.respond(scenario.continuation!.answer);
    await Promise.all([next.result, live.result]);
    expect(recorders).toHaveLength(1);
    expect(recorders[0]!.status).toBe('recording');
    expect(requests(recorders[0]!.stop())).toEqual(['POST /v1/sessions/new/runs']);
  });

  it('a new recorder stops the oldest still recording past maxRecorders (default 1), which keeps what it had', async () => {
    const recorders: RunRecorder[] = [];
    const client = recordingClient(testClient(kestrel), (recorder) => recorders.push(recorder));
    await client.start({ input: 'first' }).result;
    expect(recorders.map((recorder) => recorder.status)).toEqual(['recording']);
    const second = client.start({ input: 'second' });
    expect(recorders.map((recorder) => recorder.status)).toEqual(['stopped', 'recording']);
    expect(requests(recorders[0]!.recording())).toEqual(['POST /v1/sessions/new/runs']);
    await second.result;

    const kept: RunRecorder[] = [];
    const keepTwo = recordingClient(testClient(kestrel), (recorder) => kept.push(recorder), { maxRecorders: 2 });
    const runs = ['a', 'b', 'c'].map((input) => keepTwo.start({ input }));
    expect(kept.map((recorder) => recorder.status)).toEqual(['stopped', 'recording', 'recording']);
    await Promise.all(runs.map((run) => run.result));
  });
});
