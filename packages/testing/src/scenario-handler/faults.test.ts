import { ProtocolError, parseSSEMessage } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { getScenario } from '../scenarios.js';
import {
  JSON_TYPE,
  dataOf,
  errorBody,
  parseAll,
  readStream,
  runIdOf,
  seqsOf,
  sessionIdOf,
  startKestrel,
  startRun,
} from './loopback.test-helper.js';

const fault = (value: string) => ({ headers: { 'x-kestrel-fault': value } });

describe('faults written in the scenarios', () => {
  it('drop: cuts the connection after the events before it, which all arrive', async () => {
    const kestrel = await startKestrel();
    const read = await readStream(await startRun(kestrel, 'dropped-mid-stream'));
    expect(read.ending).toBe('dropped');
    const dropAt = getScenario('dropped-mid-stream').steps.findIndex((step) => step.kind === 'drop');
    expect(seqsOf(read.messages)).toEqual(Array.from({ length: dropAt }, (_, index) => index + 1));
  });

  it('end: closes the body cleanly without run.completed (a truncated stream)', async () => {
    const kestrel = await startKestrel();
    const read = await readStream(await startRun(kestrel, 'truncated'));
    expect(read.ending).toBe('clean');
    expect(parseAll(read.messages).map((event) => event.type)).not.toContain('run.completed');
    expect(read.messages.length).toBeGreaterThan(4);
  });

  it('stall: writes nothing, keep-alives included, for the stall, then goes on', async () => {
    const kestrel = await startKestrel({ keepAliveMs: 3, stallMs: 80 });
    const read = await readStream(await startRun(kestrel, 'stalled-heartbeat'));
    expect(parseAll(read.messages).at(-1)?.type).toBe('run.completed');
    const stallAfterSeq = getScenario('stalled-heartbeat').steps.findIndex((step) => step.kind === 'stall');
    const at = read.items.findIndex((item) => item.kind === 'message' && item.message.id === String(stallAfterSeq));
    // A 3 ms keep-alive would write many comments across the 80 ms stall: none comes.
    expect(read.items[at + 1]).toMatchObject({ kind: 'message', message: { id: String(stallAfterSeq + 1) } });
  });

  it('raw: writes the text verbatim, so a mismatched event name reaches the client', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'event-name-mismatch');
    const read = await readStream(response);
    const last = read.messages.at(-1);
    expect(last?.event).toBe('reasoning.delta');
    // The raw block carries this run's ids too, so it reads as part of the run it interrupts.
    expect(JSON.parse(last?.data ?? '{}')).toMatchObject({
      type: 'text.delta',
      runId: runIdOf(response),
      sessionId: sessionIdOf(response),
    });
    expect(() => parseSSEMessage(last ?? { data: '' })).toThrow(/disagrees with data.type/);
  });
});

describe('faults injected with x-kestrel-fault', () => {
  it('http-<status> answers that status with an error body on any resource', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'completed-text', fault('http-503'));
    expect(response.status).toBe(503);
    expect(await errorBody(response)).toMatchObject({ code: 'injected_fault' });
    const result = await fetch(`${kestrel.url}/v1/runs/anything/result`, {
      headers: { 'x-kestrel-fault': 'http-401' },
    });
    expect(result.status).toBe(401);
  });

  it('slow-start:<ms> holds the response headers back', async () => {
    const kestrel = await startKestrel();
    const started = performance.now();
    const response = await startRun(kestrel, 'completed-text', fault('slow-start:120'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect((await readStream(response)).ending).toBe('clean');
  });

  it('drop-at:<seq> cuts the connection right after that seq', async () => {
    const kestrel = await startKestrel();
    const read = await readStream(await startRun(kestrel, 'completed-text', fault('drop-at:7')));
    expect(read.ending).toBe('dropped');
    expect(seqsOf(read.messages)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('truncate-at:<seq> ends the body cleanly right after that seq', async () => {
    const kestrel = await startKestrel();
    const read = await readStream(await startRun(kestrel, 'completed-text', fault('truncate-at:5')));
    expect(read.ending).toBe('clean');
    expect(seqsOf(read.messages)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stall-at:<seq>:<ms> goes silent after that seq, then continues', async () => {
    const kestrel = await startKestrel({ keepAliveMs: 3 });
    const read = await readStream(await startRun(kestrel, 'completed-text', fault('stall-at:4:80')));
    const at = read.items.findIndex((item) => item.kind === 'message' && item.message.id === '4');
    expect(read.items[at + 1]).toMatchObject({ kind: 'message', message: { id: '5' } });
    expect(parseAll(read.messages).at(-1)?.type).toBe('run.completed');
  });

  it('stall-at:<seq> without ms stays silent until the client leaves', async () => {
    const kestrel = await startKestrel({ keepAliveMs: 3 });
    const abort = new AbortController();
    const response = await startRun(kestrel, 'completed-text', { ...fault('stall-at:3'), signal: abort.signal });
    const read = readStream(response);
    setTimeout(() => abort.abort(), 60);
    const result = await read;
    expect(result.ending).toBe('dropped');
    expect(seqsOf(result.messages)).toEqual([1, 2, 3]);
    expect(result.items.at(-1)).toMatchObject({ kind: 'message' });
  });

  it('malformed-at:<seq> replaces that event data with invalid JSON, framing kept', async () => {
    const kestrel = await startKestrel();
    const read = await readStream(await startRun(kestrel, 'completed-text', fault('malformed-at:6')));
    const bad = read.messages.find((message) => message.id === '6');
    expect(bad).toBeDefined();
    expect(() => parseSSEMessage(bad ?? { data: '' })).toThrow(ProtocolError);
    try {
      parseSSEMessage(bad ?? { data: '' });
    } catch (error) {
      expect((error as ProtocolError).seq).toBe(6);
    }
    expect(dataOf(read.messages.filter((message) => message.id !== '6')).at(-1)?.type).toBe('run.completed');
  });

  it('faults combine, and the JSON route drops for real on drop-at', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'completed-text', {
      accept: JSON_TYPE,
      ...fault('slow-start:10, drop-at:3'),
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    const truncated = await startRun(kestrel, 'completed-text', { accept: JSON_TYPE, ...fault('truncate-at:3') });
    expect(truncated.status).toBe(502);
  });

  it('refuses an unknown or badly written fault with 400', async () => {
    const kestrel = await startKestrel();
    for (const value of ['explode', 'drop-at:x', 'http-200', 'slow-start']) {
      const response = await startRun(kestrel, 'completed-text', fault(value));
      expect(response.status, value).toBe(400);
      expect(await errorBody(response)).toMatchObject({ code: 'invalid_fault' });
    }
    const delay = await startRun(kestrel, 'completed-text', { headers: { 'x-kestrel-delay': 'soon' } });
    expect(await errorBody(delay)).toMatchObject({ code: 'invalid_delay' });
  });
});
