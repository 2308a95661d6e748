import {
  formatPath,
  interactionAnswerSchema,
  parseInteractionAnswerShape,
  protocolErrorMap,
  startRunBodySchema,
  type InteractionAnswer,
  type KestrelRoute,
  type StartRunBody,
} from '@kestrel/core';
import { declaresMoreThan, errorResponse, readLimited } from '@kestrel/core/internal';
import { DEFAULT_MAX_BODY_BYTES, type KestrelBodyRoute } from './proxy-options.js';

/** The parsed body, and its text as Kestrel receives it (written once, here). */
type BodyCheck = { ok: true; body: StartRunBody | InteractionAnswer; text: string } | { ok: false; response: Response };

/** Whether the route carries a request body (a start or an answer); other resources have none. */
export const hasBody = (route: KestrelRoute): route is KestrelBodyRoute =>
  route.kind === 'start-run' || route.kind === 'answer';

const tooLarge = (limit: number) =>
  errorResponse(413, 'body_too_large', `The request body is larger than ${limit} bytes`);

/**
 * Refuses a body that is not declared `application/json` (in UTF-8) with 415, before a byte of it is read. A form or
 * `text/plain` POST is what another site can send without asking (no CORS preflight); a JSON one it cannot.
 */
export function checkContentType(request: Request, maxBytes: number): Response | undefined {
  const declared = request.headers.get('content-type');
  const [type = '', ...params] = (declared ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = params
    .find((param) => param.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (type !== 'application/json' || (charset !== undefined && charset !== 'utf-8')) {
    return errorResponse(
      415,
      'unsupported_media_type',
      `The request body must be application/json in UTF-8, not "${(declared ?? 'none').slice(0, 100)}"`,
    );
  }
  return declaresMoreThan(request.headers, maxBytes) ? tooLarge(maxBytes) : undefined;
}

/**
 * Reads the body of a start or an answer (at most `maxBytes`, 413 beyond) and checks it before it leaves, so
 * Kestrel never sees a request the protocol does not allow; the browser gets a 400 naming the field instead. What
 * comes back is the parsed value, unknown keys dropped: only that is ever sent, never the browser's text, so a
 * duplicated key cannot be read one way here and another way upstream.
 */
export async function checkRequestBody(
  route: KestrelBodyRoute,
  request: Request,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<BodyCheck> {
  const [schema, what] =
    route.kind === 'start-run' ? [startRunBodySchema, 'run request'] : [interactionAnswerSchema, 'answer'];
  if (declaresMoreThan(request.headers, maxBytes)) return { ok: false, response: tooLarge(maxBytes) };
  const read = await readLimited(request.body, maxBytes);
  if (read.kind === 'too-large') return { ok: false, response: tooLarge(maxBytes) };
  if (read.kind === 'dropped')
    return { ok: false, response: errorResponse(400, 'body_incomplete', `The ${what} ended before it was complete`) };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch {
    return { ok: false, response: errorResponse(400, 'invalid_json', `The ${what} is not valid JSON in UTF-8`) };
  }
  // The answer's own parse keeps a form field named `__proto__`, which a bare record parse would drop unseen.
  const parsed =
    route.kind === 'start-run'
      ? schema.safeParse(json, { error: protocolErrorMap })
      : parseInteractionAnswerShape(json);
  if (parsed.success) {
    // Written for Kestrel here, once. A body nested deeper than JSON.stringify's stack reaches (10 KB of `[` in a
    // `responseFormat.schema`) cannot be: that is the browser's bad request, a 400, not a 500 later.
    try {
      return { ok: true, body: parsed.data, text: JSON.stringify(parsed.data) };
    } catch {
      return { ok: false, response: errorResponse(400, 'invalid_request', `The ${what} is nested too deeply`) };
    }
  }
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0 ? '' : ` at ${formatPath(issue.path as (string | number)[])}`;
  return {
    ok: false,
    response: errorResponse(400, 'invalid_request', `Invalid ${what}${where}: ${issue?.message ?? 'invalid'}`),
  };
}

/** The upstream path of a resource, its ids encoded again, with only the query parameters the route checked. */
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
    case 'list-runs': {
      const query = new URLSearchParams();
      if (route.before !== undefined) query.set('before', route.before);
      if (route.limit !== undefined) query.set('limit', String(route.limit));
      const search = query.toString();
      return `/v1/sessions/${e(route.sessionId)}/runs${search === '' ? '' : `?${search}`}`;
    }
    default:
      return route satisfies never;
  }
}
