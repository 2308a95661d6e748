import { parseRunCompletedEvent } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { createLongStreamScenario } from '../long-stream.js';
import { scenarios } from '../scenarios.js';
import { createScenarioFetch } from './create-scenario-fetch.js';
import {
  JSON_TYPE,
  dataOf,
  errorBody,
  readStream,
  resume,
  runIdOf,
  seqsOf,
  sessionIdOf,
  startKestrel,
  startRun,
} from './loopback.test-helper.js';

const cancel = (kestrel: { url: string }, runId: string) =>
  fetch(`${kestrel.url}/v1/runs/${runId}/cancel`, { method: 'POST' });

describe('POST /v1/runs/{runId}/cancel', () => {
  it('answers 202, then the live stream settles CANCELLED by the user after turn/end cancelled and agent.idle', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'completed-text', { headers: { 'x-kestrel-delay': '15' } });
    const runId = runIdOf(started);
    let cancelled: Promise<Response> | undefined;
    const read = await readStream(started, (message) => {
      if (message.id === '8') cancelled = cancel(kestrel, runId);
      return false;
    });
    expect((await cancelled)?.status).toBe(202);
    const events = dataOf(read.messages);
    const seqs = seqsOf(read.messages);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => index + 1));
    expect(events.slice(-3).map((event) => event.type)).toEqual(['turn/end', 'agent.idle', 'run.completed']);
    expect(events.at(-3)).toMatchObject({ reason: { kind: 'cancelled' }, sessionId: sessionIdOf(started) });
    const terminal = parseRunCompletedEvent(events.at(-1));
    expect(terminal.output).toMatchObject({ status: 'CANCELLED', cancellation: { by: 'user' } });
    const deltas = events.filter((event) => event.type === 'text.delta').map((event) => String(event.delta));
    expect(terminal.output.assistantText).toBe(deltas.join('').trimEnd());
    expect(events.length).toBeLessThan(23);

    const result = await fetch(`${kestrel.url}/v1/runs/${runId}/result`);
    expect(await result.json()).toEqual(events.at(-1));
  });

  it('settles a run nobody is watching, for the next resume to read', async () => {
    const kestrel = await startKestrel();
    const abort = new AbortController();
    const started = await startRun(kestrel, 'completed-text', {
      signal: abort.signal,
      headers: { 'x-kestrel-delay': '10' },
    });
    await readStream(started, (message) => message.id === '3');
    abort.abort();
    expect((await cancel(kestrel, runIdOf(started))).status).toBe(202);
    const rest = dataOf((await readStream(await resume(kestrel, runIdOf(started), 3))).messages);
    expect(rest[0]?.seq).toBe(4);
    expect(parseRunCompletedEvent(rest.at(-1)).output.status).toBe('CANCELLED');
  });

  it('keeps run.started and message.received when the cancel comes before anything was produced', async () => {
    const kestrel = await startKestrel();
    const abort = new AbortController();
    const started = await startRun(kestrel, 'completed-text', {
      signal: abort.signal,
      headers: { 'x-kestrel-delay': '50' },
    });
    expect((await cancel(kestrel, runIdOf(started))).status).toBe(202);
    const events = dataOf((await readStream(started)).messages);
    expect(events.map((event) => event.type)).toEqual([
      'run.started',
      'message.received',
      'turn/end',
      'agent.idle',
      'run.completed',
    ]);
    expect(parseRunCompletedEvent(events.at(-1)).output).toMatchObject({ status: 'CANCELLED', assistantText: null });
  });

  it('settles the JSON route CANCELLED too', async () => {
    const kestrel = await startKestrel();
    const pending = startRun(kestrel, 'tool-error', { accept: JSON_TYPE, headers: { 'x-kestrel-delay': '10' } });
    await new Promise((resolve) => setTimeout(resolve, 40));
    const runId = 'run_tool_error_1';
    expect((await cancel(kestrel, runId)).status).toBe(202);
    const response = await pending;
    expect(parseRunCompletedEvent(await response.json()).output.status).toBe('CANCELLED');
  });

  it('answers 409 once the run settled and 404 for an unknown run', async () => {
    const kestrel = await startKestrel();
    const started = await startRun(kestrel, 'completed-text');
    await readStream(started);
    const late = await cancel(kestrel, runIdOf(started));
    expect(late.status).toBe(409);
    expect(await errorBody(late)).toMatchObject({ code: 'run_settled' });
    const unknown = await cancel(kestrel, 'run_nope');
    expect(unknown.status).toBe(404);
  });

  it('reaches an unpaced run mid-stream: the handler waits for a slow reader instead of queueing everything', async () => {
    const scenarioFetch = createScenarioFetch({
      scenarios: [...scenarios, createLongStreamScenario({ deltas: 5_000 })],
    });
    const kestrel = { url: 'http://kestrel.test' };
    const started = await startRun(kestrel, 'long-stream', { fetch: scenarioFetch });
    let cancelled: Promise<Response> | undefined;
    const read = await readStream(started, (message) => {
      if (message.id === '100')
        cancelled = scenarioFetch(`${kestrel.url}/v1/runs/${runIdOf(started)}/cancel`, { method: 'POST' });
      return false;
    });
    expect((await cancelled)?.status).toBe(202);
    const events = dataOf(read.messages);
    expect(events.length).toBeLessThan(1_000);
    expect(parseRunCompletedEvent(events.at(-1)).output.status).toBe('CANCELLED');
  });
});
