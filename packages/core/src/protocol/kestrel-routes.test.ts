import { describe, expect, it } from 'vitest';
import { matchKestrelRoute } from './kestrel-routes.js';
import { kestrelIdProblem } from './kestrel-id.js';

describe('matchKestrelRoute', () => {
  it('names each resource of docs/protocol.md#resources with its decoded parameters', () => {
    expect(matchKestrelRoute('POST', '/v1/sessions/new/runs')).toEqual({
      ok: true,
      route: { kind: 'start-run', sessionId: 'new' },
    });
    expect(matchKestrelRoute('POST', '/v1/sessions/ses%201/interactions/int_a')).toEqual({
      ok: true,
      route: { kind: 'answer', sessionId: 'ses 1', interactionId: 'int_a' },
    });
    expect(matchKestrelRoute('GET', '/v1/runs/run_1/events')).toEqual({
      ok: true,
      route: { kind: 'resume', runId: 'run_1' },
    });
    expect(matchKestrelRoute('post', '/v1/runs/run_1/cancel')).toEqual({
      ok: true,
      route: { kind: 'cancel', runId: 'run_1' },
    });
    expect(matchKestrelRoute('GET', '/v1/runs/run_1/result')).toEqual({
      ok: true,
      route: { kind: 'result', runId: 'run_1' },
    });
  });

  it('tells an unknown path (404) from a known one asked with the wrong method (405 with Allow)', () => {
    expect(matchKestrelRoute('GET', '/v1/runs')).toEqual({ ok: false, status: 404 });
    expect(matchKestrelRoute('GET', '/v1/runs/r/cancel')).toEqual({ ok: false, status: 405, allow: 'POST' });
    expect(matchKestrelRoute('DELETE', '/v1/sessions/new/runs')).toEqual({
      ok: false,
      status: 405,
      allow: 'GET, POST',
    });
    expect(matchKestrelRoute('CONSTRUCTOR', '/v1/runs/r/result')).toEqual({ ok: false, status: 405, allow: 'GET' });
  });

  it.each([
    ['/v1/runs/%E0%A4%A/result', 'malformed percent-encoding'],
    ['/v1/runs/%/events', 'malformed percent-encoding'],
    ['/v1/runs/../result', '".."'],
    ['/v1/runs/%2E%2E/result', '".."'],
    ['/v1/runs/./events', '"."'],
    ['/v1/runs//result', 'empty'],
    ['/v1/sessions/%2e/interactions/int_1', '"."'],
    ['/v1/sessions/ses_1/interactions/..', '".."'],
  ])('refuses %s with 400 naming the id (%s), never a thrown URIError', (path, what) => {
    const method = path.includes('interactions') ? 'POST' : 'GET';
    const match = matchKestrelRoute(method, path);
    expect(match).toMatchObject({ ok: false, status: 400, code: 'invalid_path' });
    expect(match.ok === false && match.status === 400 ? match.message : '').toContain(what);
  });
});

describe('matchKestrelRoute: the session listing (docs/protocol.md#a-sessions-runs)', () => {
  const list = (query: string) => matchKestrelRoute('GET', '/v1/sessions/ses_1/runs', new URLSearchParams(query));

  it('is a GET on the path a POST starts a run on, carrying only the documented parameters', () => {
    expect(list('')).toEqual({ ok: true, route: { kind: 'list-runs', sessionId: 'ses_1' } });
    expect(list('before=cur_9&limit=100&api_key=x&tenant=other')).toEqual({
      ok: true,
      route: { kind: 'list-runs', sessionId: 'ses_1', before: 'cur_9', limit: 100 },
    });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=', 'limit'],
    ['limit=1e2', 'limit'],
    ['before=', 'before'],
    [`before=${'c'.repeat(513)}`, 'before'],
    ['limit=1&limit=2', '2 times'],
    ['before=a&before=b', '2 times'],
  ])('refuses %s with 400 invalid_query naming the parameter', (query, what) => {
    const match = list(query);
    expect(match).toMatchObject({ ok: false, status: 400, code: 'invalid_query' });
    expect(match.ok === false && match.status === 400 ? match.message : '').toContain(what);
  });
});

describe('kestrelIdProblem', () => {
  it('accepts ids with dots and encoded characters, refuses the ones that name another path', () => {
    expect(kestrelIdProblem('run.1')).toBeUndefined();
    expect(kestrelIdProblem('...')).toBeUndefined();
    expect(kestrelIdProblem('a/b')).toBeUndefined();
    expect(kestrelIdProblem('')).toBe('is empty');
    expect(kestrelIdProblem('..')).toContain('".."');
  });
});
