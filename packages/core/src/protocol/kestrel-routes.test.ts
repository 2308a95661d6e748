import { describe, expect, it } from 'vitest';
import { matchKestrelRoute } from './kestrel-routes.js';

describe('matchKestrelRoute', () => {
  it('names each resource of PROTOCOL.md section 1 with its decoded parameters', () => {
    expect(matchKestrelRoute('POST', '/v1/sessions/new/runs')).toEqual({ ok: true, route: { kind: 'start-run', sessionId: 'new' } });
    expect(matchKestrelRoute('POST', '/v1/sessions/ses%201/interactions/int_a')).toEqual({
      ok: true,
      route: { kind: 'answer', sessionId: 'ses 1', interactionId: 'int_a' },
    });
    expect(matchKestrelRoute('GET', '/v1/runs/run_1/events')).toEqual({ ok: true, route: { kind: 'resume', runId: 'run_1' } });
    expect(matchKestrelRoute('post', '/v1/runs/run_1/cancel')).toEqual({ ok: true, route: { kind: 'cancel', runId: 'run_1' } });
    expect(matchKestrelRoute('GET', '/v1/runs/run_1/result')).toEqual({ ok: true, route: { kind: 'result', runId: 'run_1' } });
  });

  it('tells an unknown path (404) from a known one asked with the wrong method (405 with Allow)', () => {
    expect(matchKestrelRoute('GET', '/v1/runs')).toEqual({ ok: false, status: 404 });
    expect(matchKestrelRoute('GET', '/v1/sessions/new/runs')).toEqual({ ok: false, status: 405, allow: 'POST' });
  });
});
