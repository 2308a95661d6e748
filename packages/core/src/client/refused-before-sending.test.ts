import { getScenario } from '@kestrel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunCompletedEvent } from '../protocol/types.js';
import { kestrelIdProblem } from '../protocol/kestrel-id.js';
import { toWireEvent } from '../protocol/encode-run-event.js';
import { createRunClient } from './create-run-client.js';
import { RunUsageError } from './run-usage-error.js';
import { startLoopbackKestrel, testClient } from './loopback-kestrel.test-helper.js';
import { startRecordingServer, type RecordingServer } from './recording-server.test-helper.js';

/*
 * Issue 13 items 6 and 10: calls the client refuses before anything leaves. The recording server shows what did:
 * an id of `.` or `..` would turn `/v1/runs/../result` into `/v1/result`, and an expired interaction is not answered.
 */

let waiting: RunCompletedEvent;
let server: RecordingServer;
/** What the server's `/result` answers: a WAITING run, as changed by the test. */
let served: unknown = null;

beforeAll(async () => {
  const kestrel = await startLoopbackKestrel();
  const scenario = getScenario('waiting-form');
  waiting = await testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input }).result;
  await kestrel.close();
  server = await startRecordingServer((request, res) => {
    const json = { 'content-type': 'application/json' };
    // No events kept: a resume reads the run from its result alone.
    if (request.method === 'GET' && request.path.endsWith('/events'))
      res.writeHead(410, json).end('{"error":{"code":"gone","message":"gone"}}');
    else if (request.method === 'GET' && request.path.endsWith('/result'))
      res.writeHead(200, json).end(JSON.stringify(served));
    else res.writeHead(500).end();
  });
});
afterAll(() => server.close());

const client = () => createRunClient({ baseUrl: server.url, requestTimeoutMs: 2_000, reconnect: { attempts: 0 } });

function usageError(run: () => unknown, reason: RunUsageError['reason']): RunUsageError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(RunUsageError);
  expect(thrown).toMatchObject({ reason });
  return thrown as RunUsageError;
}

/** A WAITING run whose interaction the test changed, resumed from the server and ready to answer. */
async function waitingWith(change: (event: Record<string, unknown>, interaction: Record<string, unknown>) => void) {
  const wire = structuredClone(toWireEvent(waiting)) as { output: { interaction: Record<string, unknown> } };
  change(wire, wire.output.interaction);
  served = wire;
  const handle = client().resume({ runId: waiting.runId });
  expect((await handle.result).output.status).toBe('WAITING');
  return handle;
}

const answer = getScenario('waiting-form').continuation!.answer;
const sent = () =>
  server.requests.filter(
    (request) => request.method === 'POST' || !request.path.startsWith(`/v1/runs/${waiting.runId}/`),
  );

describe('ids that would change the path', () => {
  it.each(['..', '.', ''])(
    'run id %j: resume throws and fetchResult rejects with RunUsageError invalid-id, nothing sent',
    async (id) => {
      const before = server.requests.length;
      const error = usageError(() => client().resume({ runId: id }), 'invalid-id');
      expect(error.message).toBe(`run id ${kestrelIdProblem(id)}`);
      await expect(client().fetchResult(id)).rejects.toMatchObject({ name: 'RunUsageError', reason: 'invalid-id' });
      expect(server.requests.length).toBe(before);
    },
  );

  it.each(['..', '.', ''])('session id %j: start throws and run rejects, nothing sent', async (id) => {
    const before = server.requests.length;
    usageError(() => client().start({ input: 'x', sessionId: id }), 'invalid-id');
    await expect(client().run({ input: 'x', sessionId: id })).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'invalid-id',
    });
    expect(server.requests.length).toBe(before);
  });

  it('an interaction or session id of ".." from the server is refused by respond, nothing sent', async () => {
    const badInteraction = await waitingWith((_event, interaction) => (interaction.id = '..'));
    await expect(badInteraction.respond(answer)).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'invalid-id',
      message: expect.stringContaining('interaction id'),
    });
    const badSession = await waitingWith((event) => (event.sessionId = '.'));
    await expect(badSession.respond(answer)).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'invalid-id',
      message: expect.stringContaining('session id'),
    });
    expect(sent()).toEqual([]);
  });
});

describe('an interaction past its expiresAt', () => {
  it('respond refuses it with RunUsageError expired and sends nothing', async () => {
    const handle = await waitingWith((_event, interaction) => (interaction.expiresAt = '2001-01-01T00:00:00Z'));
    await expect(handle.respond(answer)).rejects.toMatchObject({
      name: 'RunUsageError',
      reason: 'expired',
      message: 'Interaction expired at 2001-01-01T00:00:00Z; nothing was sent',
    });
    expect(sent()).toEqual([]);
  });

  it('one that has not expired yet is sent', async () => {
    const handle = await waitingWith(() => undefined);
    await expect(handle.respond(answer)).rejects.toMatchObject({ name: 'RunClientError', kind: 'http', status: 500 });
    expect(sent().map((request) => request.method)).toEqual(['POST']);
    server.requests.length = 0;
  });
});
