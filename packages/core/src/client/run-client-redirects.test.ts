import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunClient } from './create-run-client.js';
import { rejection } from './loopback-kestrel.test-helper.js';
import { startRecordingServer, type RecordingServer } from './recording-server.test-helper.js';

/*
 * Issue 13 item 9: the client never follows a redirect, so its headers (an API key) never travel to another origin
 * and an input is never POSTed a second time. `elsewhere` is the other origin: it must receive nothing, ever.
 */

const secret = { 'x-api-key': 'key_secret', authorization: 'Bearer secret' };
let elsewhere: RecordingServer;
let redirector: RecordingServer;

beforeAll(async () => {
  elsewhere = await startRecordingServer((_request, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
  );
  // Cross-origin for /cross/..., same origin for /same/...: the status comes from the first segment after that.
  redirector = await startRecordingServer((request, res) => {
    const [, where = '', status = '302', ...rest] = request.path.split('/');
    const location = where === 'cross' ? `${elsewhere.url}/${rest.join('/')}` : `/${rest.join('/')}`;
    res.writeHead(Number(status), { location }).end();
  });
});
afterAll(async () => {
  await Promise.all([elsewhere.close(), redirector.close()]);
});

const through = (prefix: string) =>
  createRunClient({
    baseUrl: `${redirector.url}/${prefix}`,
    headers: secret,
    requestTimeoutMs: 2_000,
    reconnect: { attempts: 0 },
  });

describe('redirects', () => {
  it.each(['cross/307', 'cross/308', 'same/307', 'cross/302'])(
    'a POST answered %s is an http error of code redirect, sent once, nothing elsewhere',
    async (prefix) => {
      const before = redirector.requests.length;
      const handle = through(prefix).start({ input: 'the input' });
      const error = await rejection(handle.result);
      expect(error).toMatchObject({ kind: 'http', status: Number(prefix.split('/')[1]), code: 'redirect' });
      expect(redirector.requests.length - before).toBe(1);
      expect(elsewhere.requests).toEqual([]);
      expect(await rejection(through(prefix).run({ input: 'the input' }))).toMatchObject({
        kind: 'http',
        code: 'redirect',
      });
      expect(elsewhere.requests).toEqual([]);
    },
  );

  it('a GET redirected to another origin is refused: the API key never reaches it', async () => {
    expect(await rejection(through('cross/302').fetchResult('run_1'))).toMatchObject({
      kind: 'http',
      status: 302,
      code: 'redirect',
    });
    const handle = through('cross/307').resume({ runId: 'run_1' });
    expect(await rejection(handle.result)).toMatchObject({ kind: 'http', code: 'redirect' });
    expect(elsewhere.requests).toEqual([]);
  });

  it('a GET redirected within the same origin is not followed either: an http error, sent once', async () => {
    const before = redirector.requests.length;
    expect(await rejection(through('same/301').fetchResult('run_1'))).toMatchObject({
      kind: 'http',
      status: 301,
      code: 'redirect',
      message: 'GET /same/301/v1/runs/run_1/result: HTTP 301 redirect: not followed',
    });
    expect(redirector.requests.length - before).toBe(1);
  });

  it("a browser's opaque redirect (redirect: 'manual' hides the target) is refused, not read as an answer", async () => {
    const requested: RequestInit[] = [];
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      ok: false,
      statusText: '',
      headers: new Headers(),
      body: null,
    } as unknown as Response;
    const client = createRunClient({
      baseUrl: 'https://app.example',
      fetch: async (_input, init) => (requested.push(init ?? {}), opaque),
    });
    expect(await rejection(client.fetchResult('run_1'))).toMatchObject({ kind: 'http', status: 0, code: 'redirect' });
    expect(await rejection(client.run({ input: 'x' }))).toMatchObject({ kind: 'http', status: 0, code: 'redirect' });
    expect(requested.map((init) => init.redirect)).toEqual(['manual', 'manual']);
  });
});
