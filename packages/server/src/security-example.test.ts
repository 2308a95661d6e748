import { createRunClient, isRunClientError } from '@kestrel/core';
import { getScenario } from '@kestrel/testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// --- docs/security.md example start
import type { KestrelRoute } from '@kestrel/core';
import { createKestrelProxy, errorResponse } from '@kestrel/server';

/** What your app already has: who is signed in, and who owns which Kestrel run and session. */
export interface AppAuth {
  /** The signed-in user's id for a session cookie, or undefined. */
  userOf(sessionCookie: string): Promise<string | undefined>;
  ownerOf(kind: 'run' | 'session', id: string): Promise<string | undefined>;
  recordOwner(kind: 'run' | 'session', id: string, userId: string): Promise<void>;
}

const cookie = (request: Request, name: string) =>
  request.headers
    .get('cookie')
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

/** What a route touches that must belong to the user; a start in a `new` session touches nothing yet. */
function ownedBy(route: KestrelRoute): ['run' | 'session', string] | undefined {
  switch (route.kind) {
    case 'resume':
    case 'cancel':
    case 'result':
      return ['run', route.runId];
    case 'start-run':
      return route.sessionId === 'new' ? undefined : ['session', route.sessionId];
    case 'answer':
    case 'list-runs':
      return ['session', route.sessionId];
    default:
      return route satisfies never;
  }
}

export function createAppProxy(auth: AppAuth, env: Record<string, string | undefined> = process.env) {
  const { KESTREL_URL, KESTREL_API_KEY } = env;
  if (!KESTREL_URL || !KESTREL_API_KEY) throw new Error('Set KESTREL_URL and KESTREL_API_KEY');
  const signedIn = async (request: Request) => {
    const sid = cookie(request, 'sid');
    return sid === undefined ? undefined : auth.userOf(sid);
  };

  return createKestrelProxy({
    upstream: KESTREL_URL,
    basePath: '/api/kestrel',
    headers: { authorization: `Bearer ${KESTREL_API_KEY}` },
    // Before the body is read and before anything reaches Kestrel.
    authorize: async (request, route) => {
      const user = await signedIn(request);
      if (user === undefined) return errorResponse(401, 'unauthorized', 'Sign in first');
      const resource = ownedBy(route);
      // 404, not 403: another user's ids are not even confirmed to exist.
      if (resource !== undefined && (await auth.ownerOf(...resource)) !== user) {
        return errorResponse(404, 'not_found', 'No such run or session');
      }
      return undefined;
    },
    // Kestrel names the run (and a new session) here first; the browser hears of it only after this resolves.
    onRunStarted: async ({ runId, sessionId }, { request }) => {
      const user = await signedIn(request);
      if (user === undefined) throw new Error('signed out while starting a run');
      await auth.recordOwner('run', runId, user);
      await auth.recordOwner('session', sessionId, user);
    },
  });
}
// --- docs/security.md example end

import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createMockKestrel, type MockKestrel } from './mock-kestrel.js';
import { createNodeListener } from './node-listener.js';

/** An in-memory AppAuth: two signed-in users. */
function memoryAuth(): AppAuth {
  const users = new Map([
    ['cookie_alice', 'alice'],
    ['cookie_bob', 'bob'],
  ]);
  const owners = new Map<string, string>();
  return {
    userOf: async (sid) => users.get(sid),
    ownerOf: async (kind, id) => owners.get(`${kind}:${id}`),
    recordOwner: async (kind, id, userId) => void owners.set(`${kind}:${id}`, userId),
  };
}

let kestrel: MockKestrel;
let app: LoopbackServer;
beforeAll(async () => {
  kestrel = await createMockKestrel();
  app = await listenOnLoopback(
    createNodeListener(createAppProxy(memoryAuth(), { KESTREL_URL: kestrel.url, KESTREL_API_KEY: 'k_test' })),
  );
});
afterAll(async () => {
  await app?.close();
  await kestrel?.close();
});

const clientOf = (sid: string | undefined) =>
  createRunClient({
    baseUrl: `${app.url}/api/kestrel`,
    headers: sid === undefined ? {} : { cookie: `sid=${sid}` },
    reconnect: { attempts: 0 },
  });
const get = (sid: string, path: string) =>
  fetch(`${app.url}/api/kestrel${path}`, { headers: { cookie: `sid=${sid}` } });

describe('the per-user proxy of docs/security.md', () => {
  it('is in the docs word for word', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const example = source
      .split('// --- docs/security.md example start\n')[1]
      ?.split('// --- docs/security.md example end')[0];
    const docs = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    expect(example).toBeDefined();
    expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it("lets a user drive their own run, and answers another user's requests for it with 404", async () => {
    const scenario = getScenario('waiting-approval');
    const alice = clientOf('cookie_alice').start({ input: `[scenario:${scenario.name}] ${scenario.input}` });
    const waiting = await alice.result;
    expect(waiting.output.status).toBe('WAITING');
    const { runId, sessionId } = waiting;

    expect((await get('cookie_alice', `/v1/runs/${runId}/result`)).status).toBe(200);
    expect((await get('cookie_bob', `/v1/runs/${runId}/result`)).status).toBe(404);
    expect((await get('cookie_bob', `/v1/runs/${runId}/events`)).status).toBe(404);
    const bobAnswers = await fetch(`${app.url}/api/kestrel/v1/sessions/${sessionId}/interactions/int_approval`, {
      method: 'POST',
      headers: { cookie: 'sid=cookie_bob', 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'approval', approved: false }),
    });
    expect(bobAnswers.status).toBe(404);

    const next = await alice.respond(scenario.continuation?.answer ?? { kind: 'approval', approved: true });
    expect((await next.result).output.status).toBe('COMPLETED');
  });

  it('refuses a request without a signed-in user with 401, before anything reaches Kestrel', async () => {
    const failure = await clientOf(undefined)
      .start({ input: 'Hello' })
      .result.then(
        () => null,
        (error: unknown) => error,
      );
    expect(isRunClientError(failure) && failure.kind === 'http' ? failure.status : failure).toBe(401);
  });

  it('records the run of a JSON-route start as well', async () => {
    const response = await fetch(`${app.url}/api/kestrel/v1/sessions/new/runs`, {
      method: 'POST',
      headers: { cookie: 'sid=cookie_bob', accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ input: '[scenario:completed-text] Hi' }),
    });
    const event = (await response.json()) as { runId: string };
    expect((await get('cookie_bob', `/v1/runs/${event.runId}/result`)).status).toBe(200);
    expect((await get('cookie_alice', `/v1/runs/${event.runId}/result`)).status).toBe(404);
  });
});
