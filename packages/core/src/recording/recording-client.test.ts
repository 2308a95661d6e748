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

  it('an onRecorder that throws costs neither the run nor the error: start returns the handle, the error is rethrown on its own', async () => {
    const rethrown: (() => void)[] = [];
    const microtask = vi
      .spyOn(globalThis, 'queueMicrotask')
      .mockImplementation((callback) => void rethrown.push(callback));
    const broken = new Error('the app’s onRecorder broke');
    let handle;
    try {
      handle = recordingClient(testClient(kestrel), () => {
        throw broken;
      }).start({ input: 'still runs' });
    } finally {
      microtask.mockRestore();
    }
    expect(rethrown).toHaveLength(1);
    expect(() => rethrown[0]!()).toThrow(broken);
    expect((await handle.result).output.status).toBe('COMPLETED');
  });

  it('refuses a bad option when it is made, before any run could start and be lost', () => {
    const client = testClient(kestrel);
    expect(() => recordingClient(client, () => undefined, { maxBytes: 0 })).toThrow(RangeError);
    expect(() => recordingClient(client, () => undefined, { maxBytes: 0 })).toThrow(/recordingClient: maxBytes/);
    // @ts-expect-error -- a JavaScript caller's boolean is refused, not read as on or off
    expect(() => recordingClient(client, () => undefined, { recording: true })).toThrow(TypeError);
    expect(() => recordingClient(client, () => undefined).setRecording('yes' as 'on')).toThrow(/'on' or 'off'/);
  });
});
