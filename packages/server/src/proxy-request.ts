import { formatPath, interactionAnswerSchema, protocolErrorMap, startRunBodySchema, type KestrelRoute } from '@kestrel/core';
import { errorResponse } from './error-response.js';

type BodyCheck = { ok: true; body: string | undefined } | { ok: false; response: Response };

/**
 * Checks the body of a start or an answer before it leaves, so Kestrel never sees a request the protocol does not
 * allow; the browser gets a 400 naming the field instead. Other resources have no body.
 */
export async function checkRequestBody(route: KestrelRoute, request: Request): Promise<BodyCheck> {
  if (route.kind !== 'start-run' && route.kind !== 'answer') return { ok: true, body: undefined };
  const [schema, what] = route.kind === 'start-run' ? [startRunBodySchema, 'run request'] : [interactionAnswerSchema, 'answer'];
  const text = await request.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(400, 'invalid_json', `The ${what} is not valid JSON`) };
  }
  const parsed = schema.safeParse(json, { error: protocolErrorMap });
  if (parsed.success) return { ok: true, body: text };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${formatPath(issue.path as (string | number)[])}`;
  return { ok: false, response: errorResponse(400, 'invalid_request', `Invalid ${what}${where}: ${issue?.message ?? 'invalid'}`) };
}

/** The upstream path of a resource, its ids encoded again. */
export function upstreamPath(route: KestrelRoute): string {
  const e = encodeURIComponent;
  switch (route.kind) {
    case 'start-run':
      return `/v1/sessions/${e(route.sessionId)}/runs`;
    case 'answer':
      return `/v1/sessions/${e(route.sessionId)}/interactions/${e(route.interactionId)}`;
    case 'resume':
      return `/v1/runs/${e(route.runId)}/events`;
    case 'cancel':
      return `/v1/runs/${e(route.runId)}/cancel`;
    case 'result':
      return `/v1/runs/${e(route.runId)}/result`;
    default:
      return route satisfies never;
  }
}
