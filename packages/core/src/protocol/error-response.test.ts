import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse } from './error-response.js';
import { requestErrorBodySchema } from './schemas.js';

describe('errorResponse (the one the server helpers and the mock Kestrel answer with)', () => {
  it("writes the protocol's error body, with the issues of a refused body when given", async () => {
    const response = errorResponse(400, 'invalid_body', 'input: expected a string', {
      issues: [{ path: ['input'], message: 'expected a string' }],
    });
    expect(response.status).toBe(400);
    const body = requestErrorBodySchema.parse(await response.json());
    expect(body).toEqual({
      error: {
        code: 'invalid_body',
        message: 'input: expected a string',
        issues: [{ path: ['input'], message: 'expected a string' }],
      },
    });
  });

  it('keeps extra headers but never lets them change the content type or make the answer cacheable', () => {
    const response = errorResponse(405, 'method_not_allowed', 'Use POST', {
      headers: { allow: 'POST', 'content-type': 'text/html', 'cache-control': 'max-age=60' },
    });
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('jsonResponse answers JSON that no cache keeps', async () => {
    const response = jsonResponse(
      202,
      { runId: 'run_1', status: 'cancelling' },
      { headers: { 'x-kestrel-run-id': 'run_1' } },
    );
    expect(response.status).toBe(202);
    expect(response.headers.get('x-kestrel-run-id')).toBe('run_1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ runId: 'run_1', status: 'cancelling' });
  });
});
