import {
  ProtocolError,
  interactionAnswerSchema,
  matchKestrelRoute,
  parseRunCompletedEvent,
  requestErrorBodySchema,
  startRunBodySchema,
  formatPath,
  type KestrelRoute,
} from '@kestrel/core';
import { errorResponse } from './error-response.js';
import type { FetchHandler } from './node-listener.js';
import { sseHeaders } from './sse-headers.js';
import { validatedEventStream } from './validated-event-stream.js';

/** Browser headers a Kestrel request needs; everything else (cookies, the browser's own auth) stays behind. */
const DEFAULT_FORWARDED_HEADERS = ['accept', 'content-type', 'last-event-id'] as const;

export interface KestrelProxyOptions {
  /** Where Kestrel answers `/v1/...`, e.g. `https://kestrel.internal:8443` (a path prefix is kept). */
  readonly upstream: string | URL;
  /** The app's own credentials, added to every upstream request (they override browser headers of the same name). */
  readonly headers?: HeadersInit;
  /** Per-request credentials, e.g. a token for the signed-in user. Runs after `headers`. */
  readonly getHeaders?: (request: Request) => HeadersInit | Promise<HeadersInit>;
  /** The path the proxy is mounted under, e.g. `/api/kestrel` for `/api/kestrel/v1/...`. Default: none. */
  readonly basePath?: string;
  /** More browser headers to forward besides `accept`, `content-type` and `last-event-id`. */
  readonly forwardHeaders?: readonly string[];
  readonly fetch?: typeof fetch;
  /**
   * Told when the upstream breaks the protocol (the response then ends, see {@link createKestrelProxy}).
   * Default: `console.error`.
   */
  readonly onProtocolError?: (error: ProtocolError, request: Request) => void;
}

type BodyCheck = { ok: true; body: string } | { ok: false; response: Response };

async function checkJsonBody(
  request: Request,
  schema: typeof startRunBodySchema | typeof interactionAnswerSchema,
  what: string,
): Promise<BodyCheck> {
  const text = await request.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(400, 'invalid_json', `The ${what} is not valid JSON`) };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, body: text };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${formatPath(issue.path as (string | number)[])}`;
  return { ok: false, response: errorResponse(400, 'invalid_request', `Invalid ${what}${where}: ${issue?.message ?? 'invalid'}`) };
}

function upstreamPath(route: KestrelRoute): string {
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

/** An upstream request error keeps its status; a body that is not PROTOCOL's error body is replaced by one. */
async function passError(upstream: Response): Promise<Response> {
  const text = await upstream.text();
  try {
    const body = requestErrorBodySchema.parse(JSON.parse(text));
    return errorResponse(upstream.status, body.error.code, body.error.message);
  } catch {
    return errorResponse(upstream.status, 'upstream_error', `Kestrel answered ${upstream.status} without an error body`);
  }
}

/**
 * A backend-for-frontend handler: the browser talks to your app, your app talks to Kestrel with its own
 * credentials. Every resource of the protocol is forwarded (start, answer, resume, cancel, result), request bodies
 * are checked before they leave, and every upstream event is validated with the core schemas.
 *
 * What the browser sees:
 * - an upstream event stream, message for message, keep-alives included; `Last-Event-ID` goes upstream for resume;
 * - when the upstream drops, a dropped connection (the browser resumes through the proxy); when it ends early, an
 *   early end: no terminal event is ever invented;
 * - when the upstream breaks the protocol mid-stream, the offending message as the last one, then the end of the
 *   response, so the browser reports that protocol error (seq and field) itself; `onProtocolError` hears it too;
 * - a malformed JSON-route or result answer becomes `502 upstream_protocol_error` naming the seq and field;
 * - request errors as PROTOCOL's `{ error: { code, message } }` with their status: the upstream's own 4xx/5xx
 *   passed through, `400` for a bad body, `404`/`405` for unknown routes, `502 upstream_unreachable`.
 *
 * @example
 * // app/api/kestrel/[...path]/route.ts (Next.js)
 * const proxy = createKestrelProxy({
 *   upstream: process.env.KESTREL_URL!,
 *   basePath: '/api/kestrel',
 *   getHeaders: async () => ({ authorization: `Bearer ${await kestrelToken()}` }),
 * });
 * export { proxy as GET, proxy as POST };
 */
export function createKestrelProxy(options: KestrelProxyOptions): FetchHandler {
  const doFetch = options.fetch ?? fetch;
  const base = new URL(options.upstream);
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const forwarded = [...DEFAULT_FORWARDED_HEADERS, ...(options.forwardHeaders ?? []).map((name) => name.toLowerCase())];
  const onProtocolError = options.onProtocolError ?? ((error: ProtocolError) => console.error(`[kestrel proxy] ${error.message}`));

  return async (request) => {
    const url = new URL(request.url);
    if (basePath !== '' && !url.pathname.startsWith(`${basePath}/`)) {
      return errorResponse(404, 'not_found', `${url.pathname} is not below ${basePath}`);
    }
    const match = matchKestrelRoute(request.method, url.pathname.slice(basePath.length));
    if (!match.ok) {
      return match.status === 405
        ? errorResponse(405, 'method_not_allowed', `Use ${match.allow} for ${url.pathname}`, { headers: { allow: match.allow } })
        : errorResponse(404, 'not_found', `${url.pathname} is not a Kestrel resource`);
    }
    const { route } = match;

    let body: string | undefined;
    if (route.kind === 'start-run' || route.kind === 'answer') {
      const check = await checkJsonBody(request, route.kind === 'start-run' ? startRunBodySchema : interactionAnswerSchema, route.kind === 'start-run' ? 'run request' : 'answer');
      if (!check.ok) return check.response;
      body = check.body;
    }

    const headers = new Headers();
    for (const name of forwarded) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // The body was checked as JSON above; say so even when the browser did not.
    if (body !== undefined) headers.set('content-type', 'application/json');
    try {
      new Headers(options.headers).forEach((value, name) => headers.set(name, value));
      if (options.getHeaders !== undefined) new Headers(await options.getHeaders(request)).forEach((value, name) => headers.set(name, value));
    } catch (error) {
      return errorResponse(500, 'proxy_credentials', `Could not get Kestrel credentials: ${(error as Error).message}`);
    }

    const target = new URL(`${base.pathname.replace(/\/+$/, '')}${upstreamPath(route)}${url.search}`, base);
    // Our own controller, so the upstream can be stopped both when the browser leaves and when we end early.
    const upstreamAbort = new AbortController();
    const stopUpstream = () => upstreamAbort.abort();
    request.signal.addEventListener('abort', stopUpstream, { once: true });

    let upstream: Response;
    try {
      upstream = await doFetch(target, { method: request.method, headers, body, signal: upstreamAbort.signal });
    } catch (error) {
      request.signal.removeEventListener('abort', stopUpstream);
      if (request.signal.aborted) return errorResponse(499, 'client_closed', 'The client went away');
      return errorResponse(502, 'upstream_unreachable', `Kestrel could not be reached: ${(error as Error).message}`);
    }

    if (!upstream.ok) return passError(upstream);
    const contentType = upstream.headers.get('content-type') ?? '';

    if (contentType.startsWith('text/event-stream')) {
      if (upstream.body === null) return errorResponse(502, 'upstream_protocol_error', 'Kestrel sent an event stream without a body');
      const stream = validatedEventStream(upstream.body, {
        onProtocolError: (error) => {
          onProtocolError(error, request);
          stopUpstream();
        },
        onCancel: stopUpstream,
      });
      return new Response(stream, { status: upstream.status, headers: sseHeaders() });
    }

    if (route.kind === 'cancel') {
      // 202 with whatever small body Kestrel sent; there is no event to check.
      const text = await upstream.text();
      return new Response(text === '' ? null : text, {
        status: upstream.status,
        headers: contentType === '' ? {} : { 'content-type': contentType },
      });
    }

    if (!contentType.startsWith('application/json')) {
      return errorResponse(502, 'upstream_protocol_error', `Kestrel answered ${upstream.status} with "${contentType || 'no content type'}"`);
    }
    // The JSON route and the result: exactly one terminal event, validated, forwarded as Kestrel wrote it.
    const text = await upstream.text();
    try {
      parseRunCompletedEvent(JSON.parse(text));
    } catch (error) {
      const protocolError =
        error instanceof ProtocolError ? error : new ProtocolError(`the answer is not valid JSON (${(error as Error).message})`, { raw: text });
      onProtocolError(protocolError, request);
      return errorResponse(502, 'upstream_protocol_error', protocolError.message);
    }
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
  };
}
