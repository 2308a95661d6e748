import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkSchema, readPayload } from './payload.js';
import type { StandardSchemaV1 } from './standard-schema.js';

describe('checkSchema', () => {
  it('gives the typed value of a value that passes', () => {
    expect(checkSchema(z.object({ query: z.string() }), { query: 'tides' })).toEqual({
      status: 'valid',
      value: { query: 'tides' },
    });
  });

  it('names every issue with its path, keys and indexes as received', () => {
    const checked = checkSchema(z.object({ hits: z.array(z.object({ title: z.string() })) }), { hits: [{ title: 1 }] });
    expect(checked.status).toBe('invalid');
    expect(checked.status === 'invalid' ? checked.issues.map((issue) => issue.path) : null).toEqual([
      ['hits', 0, 'title'],
    ]);
  });

  it('reports an asynchronous schema as one issue naming what it checks, never awaiting it', () => {
    const asynchronous: StandardSchemaV1<unknown, string> = {
      '~standard': { version: 1, vendor: 'test', validate: async (value) => ({ value: String(value) }) },
    };
    expect(checkSchema(asynchronous, 'x', 'tool input schema')).toEqual({
      status: 'invalid',
      issues: [{ path: [], message: 'The tool input schema is asynchronous; use a synchronous schema' }],
    });
    // The payload keeps its own wording and its raw value.
    expect(readPayload({ finalizedPayload: 'x' }, asynchronous)).toEqual({
      status: 'invalid',
      raw: 'x',
      issues: [{ path: [], message: 'The payload schema is asynchronous; use a synchronous schema' }],
    });
  });
});
