import { describe, expect, it } from 'vitest';
import { getScenario } from '../scenarios.js';
import {
  dataOf,
  errorBody,
  expectedEvents,
  readStream,
  resume,
  runIdOf,
  seqsOf,
  sessionIdOf,
  startKestrel,
  startRun,
} from './loopback.test-helper.js';

describe('GET /v1/runs/{runId}/events', () => {
  it('continues after a dropped connection from Last-Event-ID, with no duplicates, through run.completed', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'dropped-mid-stream');
    const first = await readStream(started);
    expect(first.ending).toBe('dropped');
    const last = seqsOf(first.messages).at(-1) ?? 0;
    const second = await readStream(await resume(kestrel, runIdOf(started), last));
    expect(second.ending).toBe('clean');
    expect(seqsOf(second.messages)[0]).toBe(last + 1);
    expect([...dataOf(first.messages), ...dataOf(second.messages)]).toEqual(
      expectedEvents('dropped-mid-stream', runIdOf(started), sessionIdOf(started)),
    );
  });

  it('replays from replayFrom after a drop that asks for it: duplicates on purpose, once', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'duplicate-after-resume');
    const first = await readStream(started);
    const last = seqsOf(first.messages).at(-1) ?? 0;
    const drop = getScenario('duplicate-after-resume').steps.find((step) => step.kind === 'drop');
    const replayFrom = drop?.kind === 'drop' ? (drop.replayFrom ?? 0) : 0;
    expect(replayFrom).toBeLessThan(last);
    const second = await readStream(await resume(kestrel, runIdOf(started), last));
    expect(seqsOf(second.messages)[0]).toBe(replayFrom);
    expect(dataOf(second.messages).at(-1)?.type).toBe('run.completed');
    // A later resume is exact again.
    const third = await readStream(await resume(kestrel, runIdOf(started), last));
    expect(seqsOf(third.messages)[0]).toBe(last + 1);
  });

  it('continues past a stall the client gave up on', async () => {
    const kestrel = await startKestrel({ stallMs: 60_000 });
    const abort = new AbortController();
    const started = await startRun(kestrel, 'stalled-heartbeat', { signal: abort.signal });
    const stallAfter = getScenario('stalled-heartbeat').steps.findIndex((step) => step.kind === 'stall');
    const first = await readStream(started, (message) => message.id === String(stallAfter));
    abort.abort();
    const second = await readStream(await resume(kestrel, runIdOf(started), stallAfter));
    expect(seqsOf(second.messages)[0]).toBe(stallAfter + 1);
    expect([...dataOf(first.messages), ...dataOf(second.messages)]).toEqual(
      expectedEvents('stalled-heartbeat', runIdOf(started), sessionIdOf(started)),
    );
  });

  it('sends every event from the start without Last-Event-ID (a reload)', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'completed-text', { headers: { 'x-kestrel-fault': 'drop-at:5' } });
    await readStream(started);
    const replay = await readStream(await resume(kestrel, runIdOf(started)));
    expect(dataOf(replay.messages)).toEqual(expectedEvents('completed-text', runIdOf(started), sessionIdOf(started)));
  });

  it('replays a settled attempt through its run.completed', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'waiting-approval');
    const all = (await readStream(started)).messages;
    const replay = await readStream(await resume(kestrel, runIdOf(started), 3));
    expect(replay.ending).toBe('clean');
    expect(dataOf(replay.messages)).toEqual(dataOf(all).slice(3));
    const nothingLeft = await readStream(await resume(kestrel, runIdOf(started), seqsOf(all).at(-1) ?? 0));
    expect(nothingLeft.messages).toEqual([]);
  });

  it('produces what no connection has produced yet when the client detached early', async () => {
    const kestrel = await startKestrel();
    const abort = new AbortController();
    const started = await startRun(kestrel, 'completed-text', {
      signal: abort.signal,
      headers: { 'x-kestrel-delay': '5' },
    });
    const first = await readStream(started, (message) => message.id === '4');
    abort.abort();
    const second = await readStream(await resume(kestrel, runIdOf(started), 4));
    expect([...dataOf(first.messages), ...dataOf(second.messages)]).toEqual(
      expectedEvents('completed-text', runIdOf(started), sessionIdOf(started)),
    );
  });

  it('answers 404 for an unknown run and 400 for a Last-Event-ID that is not a seq', async () => {
    const kestrel = await startKestrel();
    const unknown = await resume(kestrel, 'run_nope', 1);
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'run_not_found' });
    const started = await startRun(kestrel, 'completed-text');
    await readStream(started);
    const bad = await resume(kestrel, runIdOf(started), 'abc');
    expect(bad.status).toBe(400);
    expect(await errorBody(bad)).toMatchObject({ code: 'invalid_last_event_id' });
  });
});
