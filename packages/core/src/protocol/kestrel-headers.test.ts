import { describe, expect, it } from 'vitest';
import { toHeaders } from './kestrel-headers.js';

describe('KestrelHeaders', () => {
  it('reads a record, name/value pairs, a Headers object and a Map alike', () => {
    const forms = [
      { authorization: 'Bearer t' },
      [['authorization', 'Bearer t']] as const,
      new Headers({ authorization: 'Bearer t' }),
      new Map([['authorization', 'Bearer t']]),
    ];
    for (const form of forms) expect(toHeaders(form).get('authorization')).toBe('Bearer t');
    expect([...toHeaders().keys()]).toEqual([]);
  });

  it('rejects a malformed pair with a TypeError instead of sending a made-up header', () => {
    const pairWithoutValue = [['authorization']] as unknown as [string, string][];
    expect(() => toHeaders(pairWithoutValue)).toThrow(TypeError);
    expect(() => toHeaders({ 'bad name': 'x' })).toThrow(TypeError);
  });
});
