import { describe, expect, it } from 'vitest';
import { MOCK_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';

/** A request as Firefox makes it: no `body` stream, only `text()`. */
const withoutStream = (text: string) =>
  ({ headers: new Headers(), body: null, text: () => Promise.resolve(text) }) as unknown as Request;

describe('readJsonBody', () => {
  it('reads a request that has no body stream (Firefox) through its text, within the same bound', async () => {
    expect(await readJsonBody(withoutStream('{"input":"hi"}'))).toEqual({ input: 'hi' });
    await expect(readJsonBody(withoutStream(`"${'語'.repeat(MOCK_MAX_BODY_BYTES / 3)}"`))).rejects.toMatchObject({
      status: 413,
      code: 'body_too_large',
    });
    await expect(readJsonBody(withoutStream(' '))).rejects.toMatchObject({ status: 400, code: 'invalid_body' });
  });
});
