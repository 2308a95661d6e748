import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunController } from '../controller/create-run-controller.js';
import { createRunClient } from './create-run-client.js';
import { rejection } from './loopback-kestrel.test-helper.js';
import { startRecordingServer, type RecordingServer } from './recording-server.test-helper.js';

/*
 * What a user sees when the client is pointed at the wrong place: a server that answers every request with an HTML
 * 404 page (a `baseUrl` with one `/v1` too many), a server that refuses the request for good, and no server at all.
 */

const notFoundPage = '<!doctype html><html><body><h1>Not Found</h1><script>steal()</script></body></html>';
let html: RecordingServer;
let json: RecordingServer;
/** The JSON error `json` answers with, set by each test. */
let answer = { status: 404, code: 'session_not_found', message: 'No session s_1' };

beforeAll(async () => {
  html = await startRecordingServer((_request, res) =>
    res.writeHead(404, 'Not Found', { 'content-type': 'text/html; charset=utf-8' }).end(notFoundPage),
  );
  json = await startRecordingServer((_request, res) =>
    res
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: answer.code, message: answer.message } })),
  );
});
afterAll(async () => {
  await html.close();
  await json.close();
});

describe('an HTML error page', () => {
  it('is named by its content type, never quoted, with the method and the whole URL path', async () => {
    const client = createRunClient({ baseUrl: `${html.url}/v1` });
    const error = await rejection(client.start({ input: 'x' }).result);
    expect(html.requests.at(-1)?.path).toBe('/v1/v1/sessions/new/runs');
    expect(error).toMatchObject({ kind: 'http', status: 404, code: null });
    expect(error.message).toBe('POST /v1/v1/sessions/new/runs: HTTP 404: text/html; charset=utf-8 body not shown');
  });

  it('never names a query string, where a base URL may carry a token', async () => {
    const error = await rejection(createRunClient({ baseUrl: `${html.url}/api?key=secret` }).run({ input: 'x' }));
    expect(error.message).toBe('POST /api/v1/sessions/new/runs: HTTP 404: text/html; charset=utf-8 body not shown');
    expect(error.message).not.toContain('secret');
  });
});

describe("the protocol's JSON error body", () => {
  it('keeps its code and message, after the method, the path and the status', async () => {
    answer = { status: 404, code: 'session_not_found', message: 'No session s_1' };
    const error = await rejection(
      createRunClient({ baseUrl: json.url }).start({ input: 'x', sessionId: 's_1' }).result,
    );
    expect(error).toMatchObject({ kind: 'http', status: 404, code: 'session_not_found' });
    expect(error.message).toBe('POST /v1/sessions/s_1/runs: HTTP 404 session_not_found: No session s_1');
  });
});

describe('retry after a refused request', () => {
  const failedStart = async (baseUrl: string) => {
    const run = createRunController({ client: createRunClient({ baseUrl, reconnect: { attempts: 0 } }) });
    run.start('x');
    await expect.poll(() => run.getState().phase).toBe('error');
    return run;
  };

  it('is not offered for an HTML 404: sending the same request again would only repeat it', async () => {
    const run = await failedStart(`${html.url}/v1`);
    expect(run.getRetryMode()).toBeNull();
    const sent = html.requests.length;
    run.retry();
    expect(run.getState().phase).toBe('error');
    expect(html.requests.length).toBe(sent);
  });

  it.each([
    [400, null],
    [401, null],
    [403, null],
    [404, null],
    [422, null],
    [408, 'restart'],
    [409, 'restart'],
    [425, 'restart'],
    [429, 'restart'],
    [500, 'restart'],
    [503, 'restart'],
  ] as const)('after a %i answer to the start request is %s', async (status, mode) => {
    answer = { status, code: 'refused', message: 'Refused' };
    expect((await failedStart(json.url)).getRetryMode()).toBe(mode);
  });
});

describe('no server at all', () => {
  it('says the server could not be reached, not that a connection was lost, and offers a retry', async () => {
    const gone = await startRecordingServer();
    await gone.close(); // nothing listens on this port any more: the connection is refused
    const run = createRunController({ client: createRunClient({ baseUrl: gone.url, reconnect: { attempts: 0 } }) });
    run.start('x');
    await expect.poll(() => run.getState().phase).toBe('error');
    expect(run.getState().error).toMatchObject({ kind: 'transport', connection: 'none' });
    expect(run.getState().error?.message).toMatch(/^POST \/v1\/sessions\/new\/runs failed: .+$/);
    expect(run.getRetryMode()).toBe('restart');
  });
});
