import { matchKestrelRoute, toHeaders, type KestrelHeaders, type ProtocolError } from '@kestrel/core';
import { errorResponse } from './error-response.js';
import type { FetchHandler } from './node-listener.js';
import { checkRequestBody, upstreamPath } from './proxy-request.js';
import { relayUpstream } from './proxy-response.js';

/** Browser headers a Kestrel request needs; everything else (cookies, the browser's own auth) stays behind. */
const DEFAULT_FORWARDED_HEADERS = ['accept', 'content-type', 'last-event-id'] as const;

/** Options of {@link createKestrelProxy}; only `upstream` is required. */
export interface KestrelProxyOptions {
  /** Where Kestrel answers `/v1/...`, e.g. `https://kestrel.internal:8443` (a path prefix is kept). */
  readonly upstream: string | URL;
  /** The app's own credentials, added to every upstream request (they override browser headers of the same name). */
  readonly headers?: KestrelHeaders;
  /** Per-request credentials, e.g. a token for the signed-in user. Runs after `headers`. */
  readonly getHeaders?: (request: Request) => KestrelHeaders | Promise<KestrelHeaders>;
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
 *   one the upstream drops while sending becomes `502 upstream_dropped`;
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

    const check = await checkRequestBody(route, request);
    if (!check.ok) return check.response;
    const { body } = check;

    const headers = new Headers();
    for (const name of forwarded) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // The body was checked as JSON above; say so even when the browser did not.
    if (body !== undefined) headers.set('content-type', 'application/json');
    try {
      toHeaders(options.headers).forEach((value, name) => headers.set(name, value));
      if (options.getHeaders !== undefined) toHeaders(await options.getHeaders(request)).forEach((value, name) => headers.set(name, value));
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

    return relayUpstream(upstream, { route, stopUpstream, onProtocolError: (error) => onProtocolError(error, request) });
  };
}
