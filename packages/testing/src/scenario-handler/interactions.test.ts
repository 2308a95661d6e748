import { parseRunCompletedEvent } from '@kestrel/core';
import { describe, expect, it } from 'vitest';
import { getScenario, scenarios } from '../scenarios.js';
import {
  JSON_TYPE,
  answer,
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

const answerable = scenarios.filter((scenario) => scenario.continuation !== undefined);

async function settleWaiting(kestrel: { url: string }, name: string) {
  const started = await startRun(kestrel, name);
  const first = dataOf((await readStream(started)).messages);
  const terminal = parseRunCompletedEvent(first.at(-1));
  if (terminal.output.status !== 'WAITING') throw new Error(`${name} did not settle WAITING`);
  return {
    runId: runIdOf(started),
    sessionId: sessionIdOf(started),
    interactionId: terminal.output.interaction.id,
    first,
  };
}

const resultOf = (kestrel: { url: string }, runId: string) => fetch(`${kestrel.url}/v1/runs/${runId}/result`);

describe('POST /v1/sessions/{sessionId}/interactions/{interactionId}', () => {
  it.each(answerable.map((scenario) => scenario.name))(
    '%s: a valid answer plays the continuation as attempt 2, seqs continuing',
    async (name) => {
      const kestrel = await startKestrel();
      const waiting = await settleWaiting(kestrel, name);
      const response = await answer(
        kestrel,
        waiting.sessionId,
        waiting.interactionId,
        getScenario(name).continuation?.answer,
      );
      expect(response.status).toBe(200);
      expect(runIdOf(response)).toBe(waiting.runId);
      const next = await readStream(response);
      const events = dataOf(next.messages);
      expect(events[0]).toMatchObject({
        type: 'run.started',
        attempt: 2,
        runId: waiting.runId,
        sessionId: waiting.sessionId,
      });
      expect(seqsOf(next.messages)[0]).toBe((waiting.first.at(-1)?.seq ?? 0) + 1);
      expect(events).toEqual(expectedEvents(name, waiting.runId, waiting.sessionId, 'continuation'));
      expect(parseRunCompletedEvent(events.at(-1)).output.status).toBe('COMPLETED');
    },
  );

  it.each(scenarios.filter((scenario) => scenario.invalidAnswer !== undefined).map((scenario) => scenario.name))(
    '%s: a wrong answer is refused with 422 listing the issues, and the run stays WAITING',
    async (name) => {
      const kestrel = await startKestrel();
      const waiting = await settleWaiting(kestrel, name);
      const response = await answer(kestrel, waiting.sessionId, waiting.interactionId, getScenario(name).invalidAnswer);
      expect(response.status).toBe(422);
      const error = await errorBody(response);
      expect(error.code).toBe('invalid_answer');
      expect(error.issues?.length).toBeGreaterThan(0);
      const result = await resultOf(kestrel, waiting.runId);
      expect(parseRunCompletedEvent(await result.json()).output.status).toBe('WAITING');
    },
  );

  it('refuses any answer to an interaction of an unknown kind with 422', async () => {
    const kestrel = await startKestrel();
    const waiting = await settleWaiting(kestrel, 'waiting-unknown-kind');
    const response = await answer(kestrel, waiting.sessionId, waiting.interactionId, { kind: 'text', text: 'signed' });
    expect(response.status).toBe(422);
    expect((await errorBody(response)).message).toContain('signature');
  });

  it('answers 409 to a second answer, and 404 to an unknown interaction or session', async () => {
    const kestrel = await startKestrel();
    const waiting = await settleWaiting(kestrel, 'waiting-approval');
    const body = getScenario('waiting-approval').continuation?.answer;
    const first = await answer(kestrel, waiting.sessionId, waiting.interactionId, body);
    await readStream(first);
    const again = await answer(kestrel, waiting.sessionId, waiting.interactionId, body);
    expect(again.status).toBe(409);
    expect(await errorBody(again)).toMatchObject({ code: 'interaction_answered' });
    const unknown = await answer(kestrel, waiting.sessionId, 'int_nope', body);
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'interaction_not_found' });
    const noSession = await answer(kestrel, 'ses_nope', waiting.interactionId, body);
    expect(await errorBody(noSession)).toMatchObject({ code: 'session_not_found' });
  });

  it('answers 404 while the run is still streaming towards its interaction', async () => {
    const kestrel = await startKestrel();
    const abort = new AbortController();
    const started = await startRun(kestrel, 'waiting-text', {
      signal: abort.signal,
      headers: { 'x-kestrel-delay': '20' },
    });
    await readStream(started, (message) => message.id === '2');
    const early = await answer(kestrel, sessionIdOf(started), 'int_text', { kind: 'text', text: 'Fix the heating' });
    expect(early.status).toBe(404);
    abort.abort();
  });

  it('resumes into the new attempt: from the WAITING terminal id, or from its start without Last-Event-ID', async () => {
    const kestrel = await startKestrel();
    const waiting = await settleWaiting(kestrel, 'waiting-text');
    const next = dataOf(
      (
        await readStream(
          await answer(kestrel, waiting.sessionId, waiting.interactionId, { kind: 'text', text: 'Fix it' }),
        )
      ).messages,
    );
    const afterTerminal = dataOf(
      (await readStream(await resume(kestrel, waiting.runId, waiting.first.at(-1)?.seq))).messages,
    );
    expect(afterTerminal).toEqual(next);
    const reload = dataOf((await readStream(await resume(kestrel, waiting.runId))).messages);
    expect(reload).toEqual(next);
    const old = dataOf((await readStream(await resume(kestrel, waiting.runId, 2))).messages);
    expect(old).toEqual(waiting.first.slice(2));
  });

  it('answers with one terminal event on the JSON route', async () => {
    const kestrel = await startKestrel();
    const waiting = await settleWaiting(kestrel, 'waiting-choice-single');
    const response = await answer(
      kestrel,
      waiting.sessionId,
      waiting.interactionId,
      { kind: 'choice', selected: ['fr8341'] },
      JSON_TYPE,
    );
    expect(response.status).toBe(200);
    const terminal = parseRunCompletedEvent(await response.json());
    expect(terminal).toMatchObject({ runId: waiting.runId, attempt: 2, output: { status: 'COMPLETED' } });
  });
});

describe('GET /v1/runs/{runId}/result', () => {
  it('is 409 while an attempt streams, 200 with the terminal event once settled, 404 for an unknown run', async () => {
    const kestrel = await startKestrel();
    const waiting = await settleWaiting(kestrel, 'waiting-form');
    const settled = await resultOf(kestrel, waiting.runId);
    expect(settled.status).toBe(200);
    expect(await settled.json()).toEqual(waiting.first.at(-1));

    const abort = new AbortController();
    const next = await fetch(`${kestrel.url}/v1/sessions/${waiting.sessionId}/interactions/${waiting.interactionId}`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'x-kestrel-delay': '20' },
      body: JSON.stringify(getScenario('waiting-form').continuation?.answer),
      signal: abort.signal,
    });
    await readStream(next, (message) => message.event === 'run.started');
    const streaming = await resultOf(kestrel, waiting.runId);
    expect(streaming.status).toBe(409);
    expect(await errorBody(streaming)).toMatchObject({ code: 'run_not_settled' });
    abort.abort();

    const unknown = await resultOf(kestrel, 'run_nope');
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'run_not_found' });
  });
});
