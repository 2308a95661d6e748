import { createMockKestrel, type MockKestrel } from '@kestrel/server/mock';
import { getScenario, recordingFetch, type RecordedRequest } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunClient } from '../client/create-run-client.js';
import type { RunClient } from '../client/types.js';
import type { RunCompletedEvent } from '../protocol/types.js';
import type { RunState } from '../run/run-state.js';
import { createRunController, type RunController } from './create-run-controller.js';
import { isWaitOver } from './wait-over.js';

let kestrel: MockKestrel;
let requests: RecordedRequest[];
let recordedFetch: typeof fetch;
beforeAll(async () => {
  kestrel = await createMockKestrel({ keepAliveMs: 50 });
  ({ requests, fetch: recordedFetch } = recordingFetch());
});
afterAll(() => kestrel.close());

function client(scenario: string, extra: { delayMs?: number; fault?: () => string | undefined } = {}): RunClient {
  return createRunClient({
    baseUrl: kestrel.url,
    fetch: recordedFetch,
    heartbeatTimeoutMs: 200,
    reconnect: { attempts: 0, baseDelayMs: 5, maxDelayMs: 10, jitter: 0 },
    headers: () => ({
      'x-kestrel-scenario': scenario,
      ...(extra.delayMs === undefined ? {} : { 'x-kestrel-delay': String(extra.delayMs) }),
      ...(extra.fault?.() === undefined ? {} : { 'x-kestrel-fault': extra.fault()! }),
    }),
  });
}

/** Resolves with the controller's state once `predicate` holds, checking at every notification. */
function until<P>(controller: RunController<P>, predicate: (state: RunState<P>) => boolean): Promise<RunState<P>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out in phase ${controller.getState().phase}`)), 5_000);
    const check = () => {
      const state = controller.getState();
      if (!predicate(state)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(state);
    };
    const unsubscribe = controller.subscribe(check);
    check();
  });
}
const settled = <P>(state: RunState<P>) => state.phase === 'settled' || state.phase === 'error';
const sent = (method: string, path: RegExp) =>
  requests.filter((request) => request.method === method && path.test(request.path));

describe('createRunController', () => {
  it('is idle before any run, with unbound getState and subscribe', () => {
    const { getState, subscribe } = createRunController({ client: client('completed-text') });
    expect(getState().phase).toBe('idle');
    const unsubscribe = subscribe(() => undefined);
    expect(typeof unsubscribe).toBe('function');
    unsubscribe();
  });

  it('a subscriber that throws does not stop the others nor the run; its error surfaces uncaught', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      const controller = createRunController({ client: client('completed-text') });
      controller.subscribe(() => {
        throw new Error('a broken view');
      });
      const phases: string[] = [];
      controller.subscribe(() => phases.push(controller.getState().phase));
      controller.start('Hello'); // does not throw: the broken view's error is reported, not raised here
      const state = await until(controller, settled);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(state.phase).toBe('settled');
      expect(phases[0]).toBe('connecting');
      expect(phases.at(-1)).toBe('settled');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((error) => (error as Error).message === 'a broken view')).toBe(true);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('follows WAITING → respond → the new attempt, one onSettled per settled attempt', async () => {
    const scenario = getScenario('waiting-form');
    const outcomes: string[] = [];
    const controller = createRunController({
      client: client(scenario.name),
      onSettled: (event) => outcomes.push(event.output.status),
    });
    const { start, respond, getState } = controller;
    start(scenario.input);
    await until(controller, (state) => state.status === 'WAITING');
    const waitingHandle = controller.getHandle();
    await respond(scenario.continuation!.answer);
    expect(controller.getHandle()).not.toBe(waitingHandle);
    const done = await until(controller, (state) => state.status === 'COMPLETED');
    expect(done.attempt).toBe(2);
    expect(done.output?.assistantText).toBe(scenario.continuation!.expected.assistantText);
    expect(getState()).toBe(done);
    expect(outcomes).toEqual(['WAITING', 'COMPLETED']);
  });

  it('does not open a second connection when asked to resume the run it already follows', async () => {
    const first = client('completed-text', { delayMs: 10 }).start({ input: 'x' });
    const { runId } = await first.result;
    const controller = createRunController({ client: client('completed-text') });
    controller.resume(runId);
    const handle = controller.getHandle();
    controller.resume(runId);
    expect(controller.getHandle()).toBe(handle);
    await until(controller, settled);
    controller.resume(runId);
    expect(controller.getHandle()).toBe(handle);
  });

  it('retry after a dropped connection resumes the same run and replays it whole', async () => {
    const scenario = getScenario('completed-text');
    let fault: string | undefined = 'drop-at:6';
    const errors: string[] = [];
    const controller = createRunController({
      client: client(scenario.name, { fault: () => fault }),
      onError: (error) => errors.push(error.kind),
    });
    controller.start(scenario.input);
    const failed = await until(controller, settled);
    expect(failed.phase).toBe('error');
    expect(errors).toEqual(['transport']);
    fault = undefined;
    const starts = sent('POST', /\/runs$/).length;
    controller.retry();
    const done = await until(controller, (state) => state.phase === 'settled');
    expect(done.runId).toBe(failed.runId);
    expect(done.status).toBe('COMPLETED');
    expect(done.draftText).toBe(scenario.expected.draftText);
    expect(done.events.length).toBe(scenario.steps.length);
    expect(sent('POST', /\/runs$/).length).toBe(starts);
    expect(sent('GET', new RegExp(`/v1/runs/${done.runId}/events$`)).length).toBeGreaterThanOrEqual(1);
  });

  it('retry after the answered attempt dropped resumes into that attempt', async () => {
    const scenario = getScenario('waiting-approval');
    const continuation = scenario.continuation!;
    const third = continuation.steps[2]!;
    if (third.kind !== 'event') throw new Error('the continuation starts with events');
    let fault: string | undefined;
    const controller = createRunController({ client: client(scenario.name, { fault: () => fault }) });
    controller.start(scenario.input);
    await until(controller, (state) => state.status === 'WAITING');
    fault = `drop-at:${third.event.seq}`;
    await controller.respond(continuation.answer);
    const failed = await until(controller, (state) => state.phase === 'error');
    expect(failed.error?.kind).toBe('transport');
    fault = undefined;
    controller.retry();
    const done = await until(controller, (state) => state.phase === 'settled' || state.phase === 'error');
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    expect(done.attempt).toBe(2);
    expect(done.output?.assistantText).toBe(continuation.expected.assistantText);
  });

  it('retry after a retryable FAILED starts again with the same input; a non-retryable one is not retried', async () => {
    const { sessionId } = await client('completed-text').start({ input: 'open a session' }).result;
    const retryable = createRunController({ client: client('failed-retryable'), sessionId });
    retryable.start('Convert 200 USD to EUR');
    const first = await until(retryable, settled);
    expect(first.status).toBe('FAILED');
    const before = sent('POST', /\/runs$/).length;
    retryable.retry();
    const second = await until(retryable, (state) => settled(state) && state.runId !== first.runId);
    expect(second.status).toBe('FAILED');
    const starts = sent('POST', /\/runs$/).slice(before);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.path).toBe(`/v1/sessions/${sessionId}/runs`);
    expect(JSON.parse(starts[0]!.body)).toMatchObject({ input: 'Convert 200 USD to EUR' });

    const fatal = createRunController({ client: client('failed-no-text') });
    fatal.start('Delete every customer record');
    await until(fatal, settled);
    const handle = fatal.getHandle();
    const count = requests.length;
    fatal.retry();
    expect(fatal.getHandle()).toBe(handle);
    expect(requests.length).toBe(count);
  });

  it('a FAILED retryable run resumed by id offers no retry and retry() sends nothing: it holds no input to restart', async () => {
    const { runId } = await client('failed-retryable').start({ input: 'Convert 200 USD to EUR' }).result;
    const resumed = createRunController({ client: client('failed-retryable') });
    resumed.resume(runId);
    const state = await until(resumed, settled);
    expect(state.status).toBe('FAILED');
    expect(state.output?.status === 'FAILED' && state.output.error.retryable).toBe(true);
    expect(resumed.getRetryMode()).toBeNull();
    const handle = resumed.getHandle();
    const count = requests.length;
    resumed.retry();
    expect(resumed.getHandle()).toBe(handle);
    expect(requests.length).toBe(count);

    // Started here, the same outcome can be retried; resuming another run by id forgets that input.
    const started = createRunController({ client: client('failed-retryable') });
    started.start('Convert 200 USD to EUR');
    await until(started, settled);
    expect(started.getRetryMode()).toBe('restart');
    started.resume(runId);
    await until(started, (next) => settled(next) && next.runId === runId);
    expect(started.getRetryMode()).toBeNull();
    const before = requests.length;
    started.retry();
    expect(requests.length).toBe(before);
  });

  it('start while streaming detaches the previous run and never cancels it', async () => {
    const controller = createRunController({ client: client('completed-text', { delayMs: 10 }) });
    controller.start('first');
    await until(controller, (state) => state.draftText !== '');
    const previous = controller.getHandle()!;
    const previousRunId = previous.getState().runId!;
    controller.start('second');
    expect(previous.getState().phase).toBe('detached');
    await until(controller, settled);
    expect(sent('POST', new RegExp(`/v1/runs/${previousRunId}/cancel$`))).toHaveLength(0);
  });

  it('reset forgets the run, and an answer that lands after it is not followed', async () => {
    const scenario = getScenario('waiting-approval');
    const outcomes: string[] = [];
    const controller = createRunController({
      client: client(scenario.name),
      onSettled: (event) => outcomes.push(event.output.status),
    });
    controller.start(scenario.input);
    await until(controller, (state) => state.status === 'WAITING');
    const answering = controller.respond(scenario.continuation!.answer);
    controller.reset();
    expect(controller.getState().phase).toBe('idle');
    expect(controller.getHandle()).toBeNull();
    await answering;
    expect(controller.getHandle()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(outcomes).toEqual(['WAITING']);
  });

  it('calls the callbacks given last, once', async () => {
    const calls: string[] = [];
    const target = client('completed-text', { delayMs: 5 });
    const controller = createRunController({ client: target, onSettled: () => calls.push('old') });
    controller.start('hi');
    await until(controller, (state) => state.draftText !== '');
    controller.setOptions({ client: target, onSettled: () => calls.push('new') });
    await until(controller, settled);
    await expect.poll(() => calls).toEqual(['new']); // the callback may come a frame after the state
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual(['new']); // and only once
  });

  it('an outcome the server then breaks is reported as settled, then as an error, each once', async () => {
    const scenario = getScenario('event-after-completed');
    const calls: string[] = [];
    const controller = createRunController({
      client: client(scenario.name),
      onSettled: (event) => calls.push(`settled ${event.output.status}`),
      onError: (error) => calls.push(`error ${error.kind}`),
    });
    controller.start(scenario.input);
    const state = await until(controller, (current) => current.phase === 'error');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual(['settled COMPLETED', 'error protocol']);
    expect(state.result?.output.status).toBe('COMPLETED');
  });

  it('detaching reports neither an outcome nor an error', async () => {
    const calls: string[] = [];
    const controller = createRunController({
      client: client('completed-text', { delayMs: 20 }),
      onSettled: () => calls.push('settled'),
      onError: () => calls.push('error'),
    });
    controller.start('hi');
    controller.detach();
    expect(controller.getState().phase).toBe('detached');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });

  it('a start or resume the client refuses (a bad id, thrown) leaves the run followed until then as it was', async () => {
    const controller = createRunController({ client: client('completed-text', { delayMs: 20 }) });
    controller.start('hi');
    await until(controller, (state) => state.phase === 'streaming' && state.runId !== null);
    const runId = controller.getState().runId;
    expect(() => controller.start({ input: 'again', sessionId: '..' })).toThrow(
      expect.objectContaining({ name: 'RunUsageError' }),
    );
    expect(() => controller.resume('..')).toThrow(expect.objectContaining({ name: 'RunUsageError' }));
    // Still followed, and still the one a retry would start again.
    expect(controller.getState()).toMatchObject({ phase: 'streaming', runId });
    const state = await until(controller, settled);
    expect(state.output?.status).toBe('COMPLETED');
    expect(state.runId).toBe(runId);
  });

  it('a resume the client refuses keeps the input a restart would send (a start refused 503 before any run id)', async () => {
    const controller = createRunController({ client: client('completed-text', { fault: () => 'http-503' }) });
    controller.start('hi');
    await until(controller, (state) => state.phase === 'error');
    expect(controller.getRetryMode()).toBe('restart');
    expect(() => controller.resume('..')).toThrow(expect.objectContaining({ name: 'RunUsageError' }));
    expect(() => controller.resumeSettled({ ...({} as RunCompletedEvent), runId: '..' })).toThrow(
      expect.objectContaining({ name: 'RunUsageError' }),
    );
    expect(controller.getRetryMode()).toBe('restart');
  });

  it('respond without a WAITING run rejects with a clear error and sends nothing', async () => {
    const controller = createRunController({ client: client('completed-text') });
    // The same typed refusal before any run as after one that did not wait: apps branch on `reason`, not on text.
    await expect(controller.respond({ kind: 'text', text: 'hi' })).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'not-waiting',
    });
    controller.start('hi');
    await until(controller, settled);
    const count = requests.length;
    await expect(controller.respond({ kind: 'text', text: 'hi' })).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'not-waiting',
    });
    expect(requests.length).toBe(count);
  });

  it('an answer refused because another tab answered first rejects with interaction_answered, and the run then shows what it became', async () => {
    const scenario = getScenario('waiting-approval');
    const here = createRunController({ client: client(scenario.name) });
    here.start(scenario.input);
    const waiting = await until(here, (state) => state.status === 'WAITING');
    const elsewhere = createRunController({ client: client(scenario.name) });
    elsewhere.resume(waiting.runId!);
    await until(elsewhere, (state) => state.status === 'WAITING');
    await elsewhere.respond(scenario.continuation!.answer);
    await until(elsewhere, (state) => state.status === 'COMPLETED');

    const refusal = await here.respond(scenario.continuation!.answer).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isWaitOver(refusal)).toBe(true);
    expect(refusal).toMatchObject({ name: 'RunClientError', kind: 'http', status: 409, code: 'interaction_answered' });
    const done = await until(here, (state) => state.status === 'COMPLETED');
    expect(done.attempt).toBe(2);
    expect(done.output?.assistantText).toBe(scenario.continuation!.expected.assistantText);
  });

  describe('an answer the server refuses', () => {
    const scenario = getScenario('waiting-approval');

    /** A client whose answers get `refusal` (while set) instead of reaching Kestrel. */
    function refusingClient(refusal: () => { status: number; code: string } | null): RunClient {
      const refusing: typeof fetch = async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        const refused = init?.method === 'POST' && /\/interactions\//.test(url) ? refusal() : null;
        if (refused === null) return recordedFetch(input, init);
        return Response.json({ error: { code: refused.code, message: 'refused' } }, { status: refused.status });
      };
      return createRunClient({
        baseUrl: kestrel.url,
        fetch: refusing,
        heartbeatTimeoutMs: 200,
        reconnect: { attempts: 0, baseDelayMs: 5, maxDelayMs: 10, jitter: 0 },
        headers: { 'x-kestrel-scenario': scenario.name },
      });
    }

    type Refusal = { status: number; code: string } | null;

    /** A run WAITING on the approval, whose answers get `refusal()` while it is set; `settled` lists what it reported. */
    async function waitingRun(refusal: () => Refusal) {
      const settled: string[] = [];
      const run = createRunController({
        client: refusingClient(refusal),
        onSettled: (event: RunCompletedEvent) => settled.push(`${event.output.status}#${event.attempt}`),
      });
      run.start(scenario.input);
      const waiting = await until(run, (state) => state.status === 'WAITING');
      const answer = () =>
        run.respond(scenario.continuation!.answer).then(
          () => null,
          (reason: unknown) => reason,
        );
      return { run, settled, waiting, answer };
    }

    it.each([
      [404, 'not_found'], // a proxy's authorize refusal (docs/security.md)
      [409, 'run_in_progress'],
    ])('a %i %s leaves the run WAITING, reported once, and the person can answer again', async (status, code) => {
      let refusal: Refusal = { status, code };
      const { run, settled, waiting, answer } = await waitingRun(() => refusal);

      const error = await answer();
      expect(error).toMatchObject({ name: 'RunClientError', status, code });
      expect(isWaitOver(error)).toBe(false);
      expect(run.getState()).toBe(waiting); // not read again
      expect(settled).toEqual(['WAITING#1']);

      refusal = null;
      expect(await answer()).toBeNull();
      await until(run, (state) => state.status === 'COMPLETED');
      expect(settled).toEqual(['WAITING#1', 'COMPLETED#2']);
    });

    it.each(['interaction_not_found', 'run_not_found', 'session_not_found'])(
      'a 404 %s is read again (the wait is over); while the run still waits, the WAITING attempt is reported once',
      async (code) => {
        const { run, settled, waiting, answer } = await waitingRun(() => ({ status: 404, code }));

        expect(isWaitOver(await answer())).toBe(true);
        // Read again: the same WAITING attempt, followed afresh.
        const again = await until(run, (state) => state !== waiting && state.status === 'WAITING');
        expect(again.result?.seq).toBe(waiting.result?.seq);
        expect(settled).toEqual(['WAITING#1']);
      },
    );

    it('reports the same attempt again when the app resets and opens the run anew', async () => {
      const { run, settled, waiting } = await waitingRun(() => null);
      run.reset();
      run.resume(waiting.runId!);
      await until(run, (state) => state.status === 'WAITING');
      expect(settled).toEqual(['WAITING#1', 'WAITING#1']);
    });
  });
});
