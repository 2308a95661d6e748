import { declaresMoreThan, readLimited } from '@kestrel/core/internal';
import { RequestError } from './error-response.js';

/**
 * The largest request body the mock reads, as the proxy's default `maxBodyBytes`: it listens on 127.0.0.1, where any
 * page a developer opens can reach it, and a body is never buffered without a bound.
 */
export const MOCK_MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () =>
  new RequestError(413, 'body_too_large', `The request body is over ${MOCK_MAX_BODY_BYTES} bytes.`);

/** The body's text, read as the proxy reads one (`readLimited`), within {@link MOCK_MAX_BODY_BYTES}. */
async function bodyText(request: Request): Promise<string> {
  if (declaresMoreThan(request.headers, MOCK_MAX_BODY_BYTES)) throw tooLarge();
  // Firefox's Request has no `body` stream: its text (at most what the page itself built) is checked whole.
  if (request.body === null || request.body === undefined) {
    const text = await request.text();
    if (new TextEncoder().encode(text).byteLength > MOCK_MAX_BODY_BYTES) throw tooLarge();
    return text;
  }
  const read = await readLimited(request.body, MOCK_MAX_BODY_BYTES);
  if (read.kind === 'too-large') throw tooLarge();
  if (read.kind === 'dropped')
    throw new RequestError(400, 'invalid_body', 'The request body ended before it was complete.');
  return new TextDecoder().decode(read.bytes);
}

/** The request body as JSON; a 400 naming the problem when it is not, a 413 past {@link MOCK_MAX_BODY_BYTES}. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await bodyText(request);
  if (text.trim() === '')
    throw new RequestError(400, 'invalid_body', 'The request body is empty; expected a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new RequestError(400, 'invalid_json', `The request body is not valid JSON (${(cause as Error).message}).`);
  }
}
