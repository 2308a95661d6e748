import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse } from '../protocol/error-response.js';
import { rejection, startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';
import { startRecordingServer, stallAfterHeaders, type RecordingServer } from './recording-server.test-helper.js';
import { SessionListingError } from './session-listing-error.js';
import { RunUsageError } from './run-usage-error.js';
import { createRunClient } from './create-run-client.js';
import { listSessionRuns } from './list-session-runs.js';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((server) => server.close()));
});

async function kestrel(options: Parameters<typeof startLoopbackKestrel>[0] = {}): Promise<LoopbackKestrel> {
  const started = await startLoopbackKestrel(options);
  closers.push(started);
  return started;
}

async function recording(...args: Parameters<typeof startRecordingServer>): Promise<RecordingServer> {
  const started = await startRecordingServer(...args);
  closers.push(started);
  return started;
}

/** A listing answered by `body` with `status`, everything else by the mock. */
function listingAnswers(status: number, body: unknown) {
  return (request: Request) =>
    request.method === 'GET' && /\/v1\/sessions\/[^/]+\/runs/.test(new URL(request.url).pathname)
      ? jsonResponse(status, body)
      : undefined;
}

async function listingError(promise: Promise<unknown>): Promise<SessionListingError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SessionListingError);
  return error as SessionListingError;
}

describe('listSessionRuns', () => {
  it('reads a page of a session, validated, and pages back with the cursor and limit it was given', async () => {
    const server = await kestrel({ seed: [{ sessionId: 'ses_42', runs: 5 }] });
    const client = testClient(server);
    const newest = await listSessionRuns(client, { sessionId: 'ses_42', limit: 3 });
    expect(newest.runs.map((run) => run.input.match(/#(\d)/)?.[1])).toEqual(['3', '4', '5']);
    expect(newest.runs[0]?.result?.output.status).toBe('COMPLETED');
    expect(newest.nextCursor).toEqual(expect.any(String));
    const older = await listSessionRuns(client, { sessionId: 'ses_42', limit: 3, before: newest.nextCursor ?? '' });
    expect(older).toMatchObject({ nextCursor: null });
    expect(older.runs.map((run) => run.input.match(/#(\d)/)?.[1])).toEqual(['1', '2']);
    expect(server.sent('GET', /\/runs/).map((request) => request.path)).toEqual([
      '/v1/sessions/ses_42/runs?limit=3',
      `/v1/sessions/ses_42/runs?before=${newest.nextCursor}&limit=3`,
    ]);
  });

  it('says a session does not exist with a session-not-found SessionListingError', async () => {
    const client = testClient(await kestrel());
    const error = await listingError(listSessionRuns(client, { sessionId: 'ses_missing' }));
    expect(error).toMatchObject({
      reason: 'session-not-found',
      status: 404,
      code: 'session_not_found',
      sessionId: 'ses_missing',
    });
  });

  it.each([
    [405, { error: { code: 'method_not_allowed', message: 'GET is not allowed' } }],
    [501, { error: { code: 'not_implemented', message: 'no listing' } }],
    [404, { error: { code: 'not_found', message: 'No such route' } }],
    [404, 'Not Found'],
  ])(
    'says a server without the listing (%i %j) is unavailable, distinct from an unknown session',
    async (status, body) => {
      const client = testClient(await kestrel({ intercept: listingAnswers(status, body) }));
      const error = await listingError(listSessionRuns(client, { sessionId: 'ses_1' }));
      expect(error.reason).toBe('unavailable');
      expect(error.status).toBe(status);
    },
  );

  it('keeps every other failure a RunClientError (a 500 is not "no listing")', async () => {
    const client = testClient(
      await kestrel({ intercept: listingAnswers(500, { error: { code: 'boom', message: 'down' } }) }),
    );
    const error = await rejection(listSessionRuns(client, { sessionId: 'ses_1' }));
    expect(error).toMatchObject({ kind: 'http', status: 500, code: 'boom' });
  });

  it.each([
    [
      'a result of another run',
      { runs: [{ ...summary(), result: terminal('run_other') }], nextCursor: null },
      'runs[0].result.runId',
    ],
    [
      'a run of another session',
      { runs: [{ ...summary(), sessionId: 'ses_2' }], nextCursor: null },
      'runs[0].sessionId',
    ],
    [
      'a COMPLETED result without text',
      {
        runs: [{ ...summary(), result: { ...terminal('run_1'), output: { status: 'COMPLETED', assistantText: '' } } }],
        nextCursor: null,
      },
      'runs[0].result.output.assistantText',
    ],
    [
      'an answer that is no answer',
      {
        runs: [{ ...summary(), answers: [{ interactionId: 'int_1', attempt: 1, answer: { kind: 'text', text: '' } }] }],
        nextCursor: null,
      },
      'runs[0].answers[0].answer.text',
    ],
    ['no nextCursor', { runs: [] }, 'nextCursor'],
    ['an over-long cursor', { runs: [], nextCursor: 'c'.repeat(600) }, 'nextCursor'],
  ])('refuses %s with a protocol error naming the field', async (_what, body, path) => {
    const client = testClient(await kestrel({ intercept: listingAnswers(200, body) }));
    const error = await rejection(listSessionRuns(client, { sessionId: 'ses_1' }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain(path);
  });

  it('refuses bad parameters before sending anything, naming them', async () => {
    const server = await kestrel();
    const client = testClient(server);
    await expect(listSessionRuns(client, { sessionId: 'ses_1', limit: 0 })).rejects.toThrow(RangeError);
    await expect(listSessionRuns(client, { sessionId: 'ses_1', limit: 101 })).rejects.toThrow(
      /limit must be an integer from 1 to 100/,
    );
    await expect(listSessionRuns(client, { sessionId: 'ses_1', before: '' })).rejects.toThrow(
      /before must be a cursor/,
    );
    await expect(listSessionRuns(client, { sessionId: 'new' })).rejects.toThrow(RunUsageError);
    await expect(listSessionRuns(client, { sessionId: '..' })).rejects.toThrow(RunUsageError);
    expect(server.requests).toEqual([]);
  });

  it('is bounded: a stalled answer times out, an oversized one is refused', async () => {
    const stalled = await recording(stallAfterHeaders('application/json', '{"runs":['));
    const slow = createRunClient({ baseUrl: stalled.url, requestTimeoutMs: 100 });
    expect(await rejection(listSessionRuns(slow, { sessionId: 'ses_1' }))).toMatchObject({ kind: 'timeout' });

    const big = await kestrel({ seed: [{ sessionId: 'ses_big', runs: 30 }] });
    const small = testClient(big, { maxMessageBytes: 2_000 });
    const error = await rejection(listSessionRuns(small, { sessionId: 'ses_big' }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('maxMessageBytes');
  });

  it('stops when its signal aborts', async () => {
    const stalled = await recording(stallAfterHeaders('application/json'));
    const client = createRunClient({ baseUrl: stalled.url, requestTimeoutMs: 5_000 });
    const abort = new AbortController();
    const listing = listSessionRuns(client, { sessionId: 'ses_1', signal: abort.signal });
    abort.abort(new Error('left the page'));
    await expect(listing).rejects.toThrow('left the page');
  });
});

function summary() {
  return {
    runId: 'run_1',
    sessionId: 'ses_1',
    input: 'Hello',
    createdAt: '2026-12-01T10:00:00Z',
    attempt: 1,
    live: false,
    answers: [],
  };
}

function terminal(runId: string) {
  return {
    type: 'run.completed',
    runId,
    sessionId: 'ses_1',
    seq: 5,
    attempt: 1,
    output: { status: 'COMPLETED', assistantText: 'Hi' },
  };
}
