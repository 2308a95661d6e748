import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunController } from '../controller/create-run-controller.js';
import { startLoopbackKestrel, testClient, type LoopbackKestrel } from '../client/loopback-kestrel.test-helper.js';
import { parseRunRecording } from './parse-run-recording.js';
import { recordRun } from './record-run.js';
import type { RecordingEntry, RunRecording } from './recording-types.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const ofType = <T extends RecordingEntry['type']>(recording: RunRecording, type: T) =>
  recording.entries.filter((entry): entry is Extract<RecordingEntry, { type: T }> => entry.type === type);

const seqs = (recording: RunRecording) =>
  ofType(recording, 'message').map((entry) => (JSON.parse(entry.data) as { seq: number }).seq);

describe('recordRun on a handle', () => {
  it('keeps every SSE message as received, each request with its status, and the run it recorded', async () => {
    const scenario = getScenario('completed-payload');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const recorder = recordRun(handle);
    await handle.result;
    const recording = recorder.stop();

    expect(recording).toMatchObject({
      version: 1,
      format: 'kestrel-recording',
      runId: handle.getState().runId,
      sessionId: handle.getState().sessionId,
      final: { phase: 'settled', status: 'COMPLETED', lastSeq: handle.getState().lastSeq },
      truncated: null,
    });
    expect(recording.entries[0]).toMatchObject({ type: 'attempt', mode: 'start', runId: null, lastSeq: 0 });
    expect(ofType(recording, 'request')).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v1/sessions/new/runs', lastEventId: null }),
    ]);
    expect(ofType(recording, 'response')).toEqual([expect.objectContaining({ status: 200 })]);
    const messages = ofType(recording, 'message');
    expect(messages.map((entry) => JSON.parse(entry.data) as unknown)).toEqual(
      handle
        .getState()
        .events.toArray()
        .map((event) => JSON.parse(JSON.stringify(event)) as unknown),
    );
    expect(messages[0]).toMatchObject({ event: 'run.started', id: '1' });
    const times = recording.entries.map((entry) => entry.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Date(recording.startedAt).toISOString()).toBe(recording.startedAt);
  });

  it('records where the connection dropped and the resume with Last-Event-ID after the last seq shown', async () => {
    const scenario = getScenario('dropped-mid-stream');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const recorder = recordRun(handle);
    await handle.result;
    const recording = recorder.stop();

    const types = recording.entries.map((entry) => entry.type);
    const dropped = types.indexOf('connection-closed');
    expect(recording.entries[dropped]).toMatchObject({ outcome: 'lost' });
    const lastSeqBefore = Math.max(...seqs({ ...recording, entries: recording.entries.slice(0, dropped) }));
    expect(recording.entries.slice(dropped + 1, dropped + 5)).toEqual([
      expect.objectContaining({ type: 'reconnect-wait', attempt: 1 }),
      expect.objectContaining({ type: 'resume', afterSeq: lastSeqBefore }),
      expect.objectContaining({ type: 'request', method: 'GET', lastEventId: lastSeqBefore }),
      expect.objectContaining({ type: 'response', status: 200 }),
    ]);
    expect(recording.final).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
  });

  it('records a heartbeat loss on a silent stream', async () => {
    const scenario = getScenario('stalled-heartbeat');
    // Well under the server's 400 ms stall, so the silence is always noticed.
    const handle = testClient(kestrel, { scenario: scenario.name, heartbeatTimeoutMs: 150 }).start({
      input: scenario.input,
    });
    const recorder = recordRun(handle);
    await handle.result;
    expect(ofType(recorder.stop(), 'heartbeat-lost')).toEqual([expect.objectContaining({ timeoutMs: 150 })]);
  });

  it('follows the run across the answer: the answer sent, then the new attempt to its outcome', async () => {
    const scenario = getScenario('waiting-approval');
    const waiting = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const recorder = recordRun(waiting);
    await waiting.result;
    const next = await waiting.respond(scenario.continuation!.answer);
    await next.result;
    const recording = recorder.stop();

    const output = waiting.getState().output;
    const interactionId = output?.status === 'WAITING' ? output.interaction.id : null;
    expect(ofType(recording, 'attempt').map((entry) => entry.mode)).toEqual(['start', 'respond']);
    expect(ofType(recording, 'answer')).toEqual([
      expect.objectContaining({ interactionId, answer: scenario.continuation!.answer }),
    ]);
    expect(recording.final).toMatchObject({ status: 'COMPLETED', lastSeq: next.getState().lastSeq });
    expect(seqs(recording)).toEqual(
      next
        .getState()
        .events.toArray()
        .map((event) => event.seq),
    );
  });

  it('records the error that stopped an attempt short of an outcome', async () => {
    const scenario = getScenario('truncated');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const recorder = recordRun(handle);
    await handle.result.catch(() => undefined);
    const recording = recorder.stop();
    expect(ofType(recording, 'error')).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ kind: 'truncated' }) }),
    ]);
    expect(recording.final).toMatchObject({ phase: 'error', status: null });
  });

  it('stops recording at stop(): what happens later is not in the recording', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 5 }).start({ input: scenario.input });
    const recorder = recordRun(handle);
    const stopped = recorder.stop();
    await handle.result;
    expect(recorder.status).toBe('stopped');
    expect(recorder.recording()).toEqual(stopped);
    expect(ofType(stopped, 'message')).toEqual([]);
  });
});

describe('the /result fallback', () => {
  it('records the result read when the server no longer has the events, and the 404 that led to it', async () => {
    const gone = await startLoopbackKestrel({
      intercept: (request) =>
        new URL(request.url).pathname.endsWith('/events')
          ? Response.json({ error: { code: 'gone', message: 'events expired' } }, { status: 404 })
          : undefined,
    });
    try {
      const scenario = getScenario('completed-text');
      const first = await testClient(gone, { scenario: scenario.name }).start({ input: scenario.input }).result;
      const handle = testClient(gone).resume({ runId: first.runId });
      const recorder = recordRun(handle);
      await handle.result;
      const recording = recorder.stop();
      expect(recording.entries.map((entry) => entry.type)).toEqual([
        'attempt',
        'request',
        'response',
        'request',
        'response',
        'result',
      ]);
      expect(ofType(recording, 'response').map((entry) => entry.status)).toEqual([404, 200]);
      expect(ofType(recording, 'result')).toEqual([
        expect.objectContaining({ reason: 'events-gone', event: JSON.parse(JSON.stringify(first)) as unknown }),
      ]);
    } finally {
      await gone.close();
    }
  });
});

describe('recordRun on a controller', () => {
  it('follows the handles the controller follows, the answer included, each attempt once', async () => {
    const scenario = getScenario('waiting-text');
    const run = createRunController({ client: testClient(kestrel, { scenario: scenario.name }) });
    const recorder = recordRun(run);
    run.start(scenario.input);
    await run.getHandle()!.result;
    await run.respond(scenario.continuation!.answer);
    await run.getHandle()!.result;
    const recording = recorder.stop();

    expect(ofType(recording, 'attempt').map((entry) => entry.mode)).toEqual(['start', 'respond']);
    expect(ofType(recording, 'request').map((entry) => entry.method)).toEqual(['POST', 'POST']);
    expect(recording.final).toMatchObject({ phase: 'settled', status: 'COMPLETED' });
    expect(recording.runId).toBe(run.getState().runId);
    expect(seqs(recording)).toEqual(
      run
        .getState()
        .events.toArray()
        .map((event) => event.seq),
    );
  });
});

describe('the size bound', () => {
  it('past maxBytes, later entries are left out and counted in `truncated`, never kept', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const now = () => 0; // one clock for both, so their entries compare equal
    const full = recordRun(handle, { now });
    const bounded = recordRun(handle, { maxBytes: 600, now });
    await handle.result;
    const all = full.stop();
    const cut = bounded.stop();

    expect(JSON.stringify(cut.entries).length).toBeLessThanOrEqual(600);
    expect(cut.entries).toEqual(all.entries.slice(0, cut.entries.length));
    expect(cut.truncated).toEqual({
      atMs: all.entries[cut.entries.length]!.t,
      maxBytes: 600,
      droppedEntries: all.entries.length - cut.entries.length,
    });
    expect(() => parseRunRecording(JSON.parse(JSON.stringify(cut)))).not.toThrow();
  });

  it('refuses a maxBytes that is not a positive number, naming it', () => {
    const handle = testClient(kestrel).resume({ runId: 'run_none' });
    expect(() => recordRun(handle, { maxBytes: 0 })).toThrow(/maxBytes must be a positive number, got 0/);
    handle.detach();
  });
});
