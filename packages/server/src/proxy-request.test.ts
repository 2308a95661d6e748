import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { checkContentType, checkRequestBody } from './proxy-request.js';

/*
 * Imports nothing that loads classic zod (@kestrel/testing does, and classic installs English messages globally):
 * this is the proxy as an app without a zod locale runs it.
 */
async function rejection(route: Parameters<typeof checkRequestBody>[0], body: unknown): Promise<string> {
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: JSON.stringify(body) });
  const check = await checkRequestBody(route, request);
  if (check.ok) throw new Error('expected the body to be refused');
  expect(check.response.status).toBe(400);
  return ((await check.response.json()) as { error: { message: string } }).error.message;
}

describe('checkRequestBody without a zod locale', () => {
  it('runs with no global locale installed', () => {
    expect(z.config().localeError).toBeUndefined();
  });

  it('names the field and what was expected in an answer it refuses', async () => {
    const route = { kind: 'answer', sessionId: 'ses_1', interactionId: 'int_1' } as const;
    expect(await rejection(route, { kind: 'approval', approved: 'yes' })).toBe(
      'Invalid answer at approved: Invalid input: expected boolean, received string',
    );
    expect(await rejection(route, { kind: 'vote' })).toBe(
      'Invalid answer at kind: Invalid option: expected one of "approval"|"choice"|"text"|"form"',
    );
  });

  it('names the field of a run request it refuses', async () => {
    expect(await rejection({ kind: 'start-run', sessionId: 'ses_1' }, { input: 42 })).toBe(
      'Invalid run request at input: Invalid input: expected string, received number',
    );
  });
});

describe('checkContentType', () => {
  const post = (contentType: string | undefined, extra: Record<string, string> = {}) =>
    new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { ...(contentType === undefined ? {} : { 'content-type': contentType }), ...extra },
    });

  it.each([
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
  ])('accepts %s', (type) => {
    expect(checkContentType(post(type), 1024)).toBeUndefined();
  });

  it.each([
    undefined,
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/jsonp',
    'application/json; charset=latin1',
  ])('refuses %s with 415', async (type) => {
    const refused = checkContentType(post(type), 1024);
    expect(refused?.status).toBe(415);
    expect(((await refused?.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
  });

  it('refuses a declared content-length over the limit with 413', () => {
    expect(checkContentType(post('application/json', { 'content-length': '1025' }), 1024)?.status).toBe(413);
    expect(checkContentType(post('application/json', { 'content-length': '1024' }), 1024)).toBeUndefined();
  });
});
