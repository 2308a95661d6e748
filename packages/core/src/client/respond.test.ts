import { getScenario, scenarios } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionAnswerError } from '../protocol/validate-interaction-answer.js';
import type { InteractionAnswer } from '../protocol/types.js';
import { RunClientError } from './run-client-error.js';
import { RunUsageError } from './run-usage-error.js';
import { startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';

let kestrel: LoopbackKestrel;
beforeAll(async () => {
  kestrel = await startLoopbackKestrel();
});
afterAll(() => kestrel.close());

const answerPosts = (interactionId: string) =>
  kestrel.requests.filter(
    (request) => request.method === 'POST' && request.path.endsWith(`/interactions/${interactionId}`),
  );

const answerable = scenarios.filter((scenario) => scenario.continuation !== undefined);

describe('answering WAITING', () => {
  it.each(answerable.map((scenario) => [scenario.name, scenario] as const))(
    '%s: the answer continues the same run',
    async (_name, scenario) => {
      const client = testClient(kestrel, { scenario: scenario.name });
      const waiting = client.start({ input: scenario.input });
      const settled = await waiting.result;
      expect(settled.output.status).toBe('WAITING');
      const before = waiting.getState();

      const next = await waiting.respond(scenario.continuation!.answer);
      const event = await next.result;
      const after = next.getState();
      expect(event.output).toMatchObject({
        status: 'COMPLETED',
        assistantText: scenario.continuation!.expected.assistantText,
      });
      expect(after).toMatchObject({ phase: 'settled', runId: before.runId, attempt: 2, finishReason: 'completed' });
      // One run: the new attempt's events follow the first attempt's, seqs still increasing.
      expect(after.events.toArray().slice(0, before.events.length)).toEqual(before.events.toArray());
      expect(after.events.at(before.events.length)?.seq).toBe(before.lastSeq + 1);
      expect(after.draftText).toBe(scenario.continuation!.expected.assistantText);
      // The WAITING handle still shows what it was.
      expect(waiting.getState()).toBe(before);
      const interaction = settled.output.status === 'WAITING' ? settled.output.interaction : undefined;
      const posts = answerPosts(interaction!.id);
      expect(posts).toHaveLength(1);
      expect(posts[0]?.path).toBe(`/v1/sessions/${before.sessionId}/interactions/${interaction!.id}`);
      expect(JSON.parse(posts[0]!.body)).toEqual(scenario.continuation!.answer);
    },
  );

  it('reload while WAITING: resume brings the interaction back, and it can be answered', async () => {
    const scenario = getScenario('waiting-form');
    const first = await testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input }).result;
    const reloaded = testClient(kestrel).resume({ runId: first.runId });
    const event = await reloaded.result;
    expect(event).toEqual(first);
    expect(reloaded.getState()).toMatchObject({
      phase: 'settled',
      status: 'WAITING',
      output: { interaction: { kind: 'form', id: 'int_form' } },
    });
    const next = await reloaded.respond(scenario.continuation!.answer);
    expect((await next.result).output.status).toBe('COMPLETED');
    expect(next.getState().runId).toBe(first.runId);
  });

  it('sends an answer once: a second call while in flight or after success is refused', async () => {
    const scenario = getScenario('waiting-choice-single');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 5 }).start({ input: scenario.input });
    await handle.result;
    const answer = scenario.continuation!.answer;
    const first = handle.respond(answer);
    const second = handle.respond(answer);
    await expect(second).rejects.toBeInstanceOf(RunUsageError);
    await expect(second).rejects.toMatchObject({ reason: 'answer-in-flight' });
    const next = await first;
    await expect(handle.respond(answer)).rejects.toMatchObject({ reason: 'already-answered' });
    await next.result;
    const session = handle.getState().sessionId;
    expect(
      answerPosts('int_choice_single').filter((post) => post.path.startsWith(`/v1/sessions/${session}/`)),
    ).toHaveLength(1);
  });

  it('refuses an invalid answer before sending anything', async () => {
    const scenario = getScenario('waiting-text');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    await handle.result;
    const sent = answerPosts('int_text').length;
    const error = await handle.respond(scenario.invalidAnswer as InteractionAnswer).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InteractionAnswerError);
    expect((error as InteractionAnswerError).issues[0]?.path).toEqual(['text']);
    expect(answerPosts('int_text')).toHaveLength(sent);
    // Still answerable with a valid answer.
    expect((await (await handle.respond(scenario.continuation!.answer)).result).output.status).toBe('COMPLETED');
  });

  it('an answer the server rejects fails that call with an HTTP error and leaves WAITING intact for a retry', async () => {
    const scenario = getScenario('waiting-approval');
    let fault: string | undefined;
    const handle = testClient(kestrel, { scenario: scenario.name, fault: () => fault }).start({
      input: scenario.input,
    });
    await handle.result;
    const waiting = handle.getState();
    fault = 'http-422';
    const error = (await handle
      .respond(scenario.continuation!.answer)
      .catch((reason: unknown) => reason)) as RunClientError;
    fault = undefined;
    expect(error).toBeInstanceOf(RunClientError);
    expect(error).toMatchObject({ kind: 'http', status: 422 });
    expect(handle.getState()).toBe(waiting);
    const next = await handle.respond(scenario.continuation!.answer);
    expect((await next.result).output.status).toBe('COMPLETED');
  });

  it('refuses to answer a run that is not settled WAITING', async () => {
    const handle = testClient(kestrel, { scenario: 'completed-text', delayMs: 10 }).start({ input: 'x' });
    await expect(handle.respond({ kind: 'approval', approved: true })).rejects.toMatchObject({ reason: 'not-waiting' });
    await handle.result;
    await expect(handle.respond({ kind: 'approval', approved: true })).rejects.toMatchObject({ reason: 'not-waiting' });
  });

  it('a WAITING interaction of an unknown kind cannot be answered', async () => {
    const handle = testClient(kestrel, { scenario: 'waiting-unknown-kind' }).start({ input: 'x' });
    await handle.result;
    await expect(handle.respond({ kind: 'text', text: 'signed' })).rejects.toBeInstanceOf(InteractionAnswerError);
  });

  it('a drop in the new attempt resumes on the same run', async () => {
    const scenario = getScenario('waiting-text');
    let fault: string | undefined;
    const handle = testClient(kestrel, { scenario: scenario.name, fault: () => fault }).start({
      input: scenario.input,
    });
    const waiting = await handle.result;
    fault = `drop-at:${waiting.seq + 6}`;
    const next = await handle.respond(scenario.continuation!.answer);
    const event = await next.result;
    fault = undefined;
    expect(event.output.status).toBe('COMPLETED');
    expect(next.getState().draftText).toBe(scenario.continuation!.expected.assistantText);
    const resume = kestrel.requests.filter((request) => request.path === `/v1/runs/${waiting.runId}/events`).at(-1);
    expect(resume?.headers['last-event-id']).toBe(String(waiting.seq + 6));
  });
});
