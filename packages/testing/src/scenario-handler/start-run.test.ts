import { parseRunCompletedEvent } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../scenarios.js';
import { MOCK_MAX_BODY_BYTES } from './read-json-body.js';
import {
  JSON_TYPE,
  dataOf,
  errorBody,
  expectedEvents,
  parseAll,
  readStream,
  runIdOf,
  seqsOf,
  sessionIdOf,
  startKestrel,
  startRun,
} from './loopback.test-helper.js';

describe('POST /v1/sessions/{sessionId}/runs over SSE', () => {
  it('streams the scenario with ids from seq and ends after run.completed', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'completed-text');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const read = await readStream(response);
    expect(read.ending).toBe('clean');
    const events = parseAll(read.messages);
    const runId = runIdOf(response);
    expect(runId).toBe('run_completed_text_1');
    expect(dataOf(read.messages)).toEqual(expectedEvents('completed-text', runId, sessionIdOf(response)));
    expect(read.messages.map((message) => message.id)).toEqual(events.map((event) => String(event.seq)));
    expect(events.at(-1)?.type).toBe('run.completed');
  });

  it('plays every non-faulty scenario to its last event, each event as the scenario wrote it', async () => {
    const kestrel = await startKestrel();
    const plain = scenarios.filter((scenario) => scenario.steps.every((step) => step.kind === 'event'));
    expect(plain.length).toBeGreaterThan(10);
    for (const scenario of plain) {
      const response = await startRun(kestrel, scenario.name);
      const read = await readStream(response);
      expect(read.ending, scenario.name).toBe('clean');
      expect(dataOf(read.messages), scenario.name).toEqual(
        expectedEvents(scenario.name, runIdOf(response), sessionIdOf(response)),
      );
    }
  });

  it('gives a scenario played twice two runs, two sessions and distinct subagent sessions', async () => {
    const kestrel = await startKestrel();
    const first = await startRun(kestrel, 'subagent-turn-end');
    const second = await startRun(kestrel, 'subagent-turn-end');
    const a = dataOf((await readStream(first)).messages);
    const b = dataOf((await readStream(second)).messages);
    expect(runIdOf(first)).not.toBe(runIdOf(second));
    expect(new Set(a.map((event) => event.runId))).toEqual(new Set([runIdOf(first)]));
    expect(new Set(b.map((event) => event.runId))).toEqual(new Set([runIdOf(second)]));
    const sessions = (events: typeof a) => new Set(events.map((event) => String(event.sessionId)));
    expect(sessions(a).size).toBe(3);
    expect([...sessions(a)].filter((id) => sessions(b).has(id))).toEqual([]);
    expect(a[0]?.sessionId).toBe(sessionIdOf(first));
  });

  it('picks the scenario from an input prefix when there is no header, and completed-text by default', async () => {
    const kestrel = await startKestrel();
    const prefixed = await startRun(kestrel, undefined, { body: { input: '[scenario:max-tokens] List every fruit' } });
    expect(runIdOf(prefixed)).toMatch(/^run_max_tokens_/);
    await readStream(prefixed);
    const headerWins = await startRun(kestrel, 'failed-no-text', { body: { input: '[scenario:max-tokens] x' } });
    expect(runIdOf(headerWins)).toMatch(/^run_failed_fatal_/);
    await readStream(headerWins);
    const plain = await startRun(kestrel, undefined);
    expect(runIdOf(plain)).toMatch(/^run_completed_text_/);
    await readStream(plain);
  });

  it('runs a second run in a session it names, and refuses an unknown session', async () => {
    const kestrel = await startKestrel();
    const first = await startRun(kestrel, 'completed-text');
    const sessionId = sessionIdOf(first);
    await readStream(first);
    const second = await startRun(kestrel, 'max-tokens', { sessionId });
    const events = dataOf((await readStream(second)).messages);
    expect(events[0]?.sessionId).toBe(sessionId);
    const unknown = await startRun(kestrel, 'completed-text', { sessionId: 'ses_nobody' });
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'session_not_found' });
  });

  it('writes keep-alive comments while the stream is live', async () => {
    const kestrel = await startKestrel({ keepAliveMs: 5 });
    const read = await readStream(await startRun(kestrel, 'completed-text', { headers: { 'x-kestrel-delay': '15' } }));
    expect(
      read.items.filter((item) => item.kind === 'comment').map((item) => item.kind === 'comment' && item.text),
    ).toContain('keep-alive');
    expect(parseAll(read.messages).at(-1)?.type).toBe('run.completed');
  });
});

describe('POST /v1/sessions/{sessionId}/runs: request errors', () => {
  it('refuses an unknown scenario with 400 and the list of known ones', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'no-such-scenario');
    expect(response.status).toBe(400);
    const error = await errorBody(response);
    expect(error.code).toBe('unknown_scenario');
    expect(error.message).toContain('no-such-scenario');
    expect(error.message).toContain('completed-text');
  });

  it('refuses a body that breaks startRunBodySchema with 400 naming the field', async () => {
    const kestrel = await startKestrel();
    const missing = await startRun(kestrel, undefined, { body: { prompt: 'hi' } });
    expect(missing.status).toBe(400);
    expect(await errorBody(missing)).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('input') });
    const format = await startRun(kestrel, undefined, {
      body: { input: 'x', responseFormat: { type: 'json_schema', name: 'invoice' } },
    });
    expect(await errorBody(format)).toMatchObject({
      code: 'invalid_body',
      message: expect.stringContaining('responseFormat.schema'),
    });
    const notJson = await fetch(`${kestrel.url}/v1/sessions/new/runs`, {
      method: 'POST',
      headers: { accept: JSON_TYPE },
      body: '{input',
    });
    expect(notJson.status).toBe(400);
    expect(await errorBody(notJson)).toMatchObject({ code: 'invalid_json' });
  });

  it('refuses a body over 1 MiB with 413, declared or streamed, without reading it all', async () => {
    const kestrel = await startKestrel();
    const big = JSON.stringify({ input: 'x'.repeat(MOCK_MAX_BODY_BYTES) });
    const declared = await fetch(`${kestrel.url}/v1/sessions/new/runs`, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect(await errorBody(declared)).toMatchObject({ code: 'body_too_large' });
    // Streamed without a length: refused once the bytes read pass the bound.
    const pieces = new TextEncoder().encode(big);
    const streamed = await fetch(`${kestrel.url}/v1/sessions/new/runs`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < pieces.length; at += 64 * 1024) controller.enqueue(pieces.subarray(at, at + 64 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers unknown paths 404 and wrong methods 405, with the error body', async () => {
    const kestrel = await startKestrel();
    const unknown = await fetch(`${kestrel.url}/v1/nothing`);
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'not_found' });
    const wrong = await fetch(`${kestrel.url}/v1/sessions/new/runs`, { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(await errorBody(wrong)).toMatchObject({ code: 'method_not_allowed' });
  });

  it('answers a malformed id or listing parameter 400, never a 500 of a thrown URIError', async () => {
    const kestrel = await startKestrel();
    const malformed = await fetch(`${kestrel.url}/v1/runs/%E0%A4%A/result`);
    expect(malformed.status).toBe(400);
    expect(await errorBody(malformed)).toMatchObject({
      code: 'invalid_path',
      message: expect.stringContaining('percent-encoding'),
    });
    const limit = await fetch(`${kestrel.url}/v1/sessions/ses_1/runs?limit=500`);
    expect(limit.status).toBe(400);
    expect(await errorBody(limit)).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('limit') });
  });

  it('says 501 for the session listing when built without one, as the protocol allows (a client keeps the runs it started)', async () => {
    const kestrel = await startKestrel({ listing: false });
    const listing = await fetch(`${kestrel.url}/v1/sessions/ses_1/runs?limit=10`);
    expect(listing.status).toBe(501);
    expect(await errorBody(listing)).toMatchObject({ code: 'not_implemented' });
  });
});

describe('the JSON route', () => {
  it.each([
    ['completed-payload', 'COMPLETED'],
    ['failed-retryable', 'FAILED'],
    ['cancelled', 'CANCELLED'],
    ['waiting-form', 'WAITING'],
  ])('answers %s with exactly its terminal event (%s)', async (name, status) => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, name, { accept: JSON_TYPE });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body: unknown = await response.json();
    const terminal = expectedEvents(name, runIdOf(response), sessionIdOf(response)).find(
      (event) => event.type === 'run.completed',
    );
    expect(body).toEqual(terminal);
    expect(parseRunCompletedEvent(body).output.status).toBe(status);
  });

  it('plays through connection faults: a dropped-then-resumed run still has its result', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'dropped-mid-stream', { accept: JSON_TYPE });
    expect(response.status).toBe(200);
    expect(parseRunCompletedEvent(await response.json()).output.status).toBe('COMPLETED');
  });

  it.each(['truncated', 'malformed-event', 'turn-end-without-kind', 'event-name-mismatch'])(
    'answers 502 with an error body, never a made-up result, when %s never reaches run.completed',
    async (name) => {
      const kestrel = await startKestrel();
      const response = await startRun(kestrel, name, { accept: JSON_TYPE });
      expect(response.status).toBe(502);
      expect(await errorBody(response)).toMatchObject({
        code: 'run_incomplete',
        message: expect.stringContaining(runIdOf(response)),
      });
    },
  );

  it('returns a malformed terminal event as the server sent it: the client must judge it', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'completed-without-text', { accept: JSON_TYPE });
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(body).toMatchObject({ type: 'run.completed', output: { status: 'COMPLETED', assistantText: '' } });
    expect(() => parseRunCompletedEvent(body)).toThrow(/assistantText/);
  });

  it('answers 406 to an Accept it cannot serve', async () => {
    const kestrel = await startKestrel();
    const response = await startRun(kestrel, 'completed-text', { accept: 'text/html' });
    expect(response.status).toBe(406);
    expect(await errorBody(response)).toMatchObject({ code: 'not_acceptable' });
  });

  it('keeps seqs in one run strictly increasing across a full stream', async () => {
    const kestrel = await startKestrel();
    const seqs = seqsOf((await readStream(await startRun(kestrel, 'tool-error'))).messages);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs[0]).toBe(1);
  });
});
