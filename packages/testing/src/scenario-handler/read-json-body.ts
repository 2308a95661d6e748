import { RequestError } from './error-response.js';

/** The request body as JSON; a 400 naming the problem when it is not. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '')
    throw new RequestError(400, 'invalid_body', 'The request body is empty; expected a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new RequestError(400, 'invalid_json', `The request body is not valid JSON (${(cause as Error).message}).`);
  }
}
