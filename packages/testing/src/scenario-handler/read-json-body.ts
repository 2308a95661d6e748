import { RequestError } from './error-response.js';

/**
 * The largest request body the mock reads, as the proxy's default `maxBodyBytes`: it listens on 127.0.0.1, where any
 * page a developer opens can reach it, and a body is never buffered without a bound.
 */
export const MOCK_MAX_BODY_BYTES = 1024 * 1024;

/** The request body as JSON; a 400 naming the problem when it is not, a 413 past {@link MOCK_MAX_BODY_BYTES}. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const tooLarge = () =>
    new RequestError(413, 'body_too_large', `The request body is over ${MOCK_MAX_BODY_BYTES} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MOCK_MAX_BODY_BYTES) throw tooLarge();
  // Decoded as it comes, without Node's Buffer: the handler also runs in the browser (createScenarioFetch).
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  // Firefox's Request has no `body` stream: its text (at most what the page itself built) is checked whole.
  if (request.body === null || request.body === undefined) {
    text = await request.text();
    if (new TextEncoder().encode(text).byteLength > MOCK_MAX_BODY_BYTES) throw tooLarge();
  }
  const reader = request.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (chunk === undefined || chunk.done) break;
    size += chunk.value.byteLength;
    if (size > MOCK_MAX_BODY_BYTES) {
      await reader?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  text += decoder.decode();
  if (text.trim() === '')
    throw new RequestError(400, 'invalid_body', 'The request body is empty; expected a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new RequestError(400, 'invalid_json', `The request body is not valid JSON (${(cause as Error).message}).`);
  }
}
