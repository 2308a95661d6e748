import { matchKestrelRoute, toHeaders, type KestrelRoute, type ProtocolError } from '@kestrel/core';
import { errorResponse } from '@kestrel/core/internal';
import type { FetchHandler } from './node-listener.js';
import { resolveProxyOptions, type KestrelProxyOptions, type ProxyHookStage } from './proxy-options.js';
import { checkOrigin } from './proxy-origin.js';
import { checkContentType, checkRequestBody, hasBody, upstreamPath } from './proxy-request.js';
import { relayUpstream, upstreamTimeout } from './proxy-response.js';
import { NODE_PROXY, type NodeProxyEntry, type UpstreamCall, type UpstreamControls } from './proxy-upstream-call.js';
import { redactor } from './redact.js';

export type { KestrelProxyOptions } from './proxy-options.js';

type Step<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The route a request names, or the 400/404/405 that answers it. */
function routeOf(request: Request, basePath: string): Step<KestrelRoute> {
  const url = new URL(request.url);
  if (basePath !== '' && !url.pathname.startsWith(`${basePath}/`)) {
    return { ok: false, response: errorResponse(404, 'not_found', `${url.pathname} is not below ${basePath}`) };
  }
  // The browser's query string is read for the documented parameters only; nothing else of it goes upstream.
  const match = matchKestrelRoute(request.method, url.pathname.slice(basePath.length), url.searchParams);
  if (match.ok) return { ok: true, value: match.route };
  switch (match.status) {
    case 400:
      return { ok: false, response: errorResponse(400, match.code, match.message) };
    case 404:
      return { ok: false, response: errorResponse(404, 'not_found', `${url.pathname} is not a Kestrel resource`) };
    case 405:
      return {
        ok: false,
        response: errorResponse(405, 'method_not_allowed', `Use ${match.allow} for ${url.pathname}`, {
          headers: { allow: match.allow },
        }),
      };
    default:
      return match satisfies never;
  }
}

/**
 * The upstream request's abort and its silence timer, made apart from the handler so that what an open stream keeps
 * (stop, the timer's state) does not keep the browser's request with it.
 */
function upstreamControls(timeoutMs: number): UpstreamControls {
  const abort = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => abort.abort();
  const reset = () => {
    clearTimeout(timer);
    // `Infinity` is the app's own choice of no bound (a timer would take it as 1 ms).
    if (timeoutMs === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
  };
  // Every wait on Kestrel has a bound: its headers, then each silence while a JSON answer is read.
  reset();
  return {
    signal: abort.signal,
    stop,
    clear: () => clearTimeout(timer),
    silence: { reset, timedOut: () => timedOut, timeoutMs },
  };
}

/** The default report, shared by every stream. */
const logToConsole = (error: ProtocolError) => console.error(`[kestrel proxy] ${error.message}`);

/** The app's `onProtocolError` with this request, or the log; only the app's keeps the request while a stream is open. */
function protocolErrorReporter(
  report: KestrelProxyOptions['onProtocolError'],
  request: Request,
): (error: ProtocolError) => void {
  return report === undefined ? logToConsole : (error) => report(error, request);
}

/**
 * A backend-for-frontend handler: the browser talks to your app, your app talks to Kestrel with its own
 * credentials. Every resource of the protocol is forwarded (start, answer, resume, cancel, result, the session
 * listing), and nothing the proxy did not check leaves. In order, before anything goes upstream:
 *
 * 1. the path: `404`/`405` for what is not a Kestrel resource, `400` for a malformed id (bad percent-encoding,
 *    empty, `.` or `..`) or listing parameter; the browser's query string is dropped, only the listing's validated
 *    `before` and `limit` pass;
 * 2. on a POST, the origin (CSRF): `403 cross_origin` unless `Origin` is the request's own or in `allowedOrigins`;
 * 3. on a body, `415` unless it is `application/json`, `413` beyond `maxBodyBytes` (default 1 MiB, read as a
 *    stream and refused as soon as it is exceeded);
 * 4. `authorize(request, route)`: the app's ownership check;
 * 5. the body: `400` naming the field unless the protocol allows it; the parsed value is sent (unknown keys
 *    dropped), through `prepareBody` when given;
 * 6. credentials: `headers`, then `getHeaders` (`401` with a generic message if it throws).
 *
 * `onRunStarted` hears the ids of each run a start or an answer created before the browser does, so the app can
 * record who owns it for `authorize`. A hook that throws is reported to `onError`; its message never reaches the
 * browser.
 *
 * What the browser sees:
 * - an upstream event stream, message for message, keep-alives included; `Last-Event-ID` goes upstream for resume;
 * - when the upstream drops, a dropped connection (the browser resumes through the proxy); when it ends early, an
 *   early end: no terminal event is ever invented;
 * - when the upstream breaks the protocol mid-stream, the offending message as the last one, then the end of the
 *   response, so the browser reports that protocol error (seq and field) itself; `onProtocolError` hears it too;
 * - a malformed JSON-route or result answer becomes `502 upstream_protocol_error` naming the seq and field; one the
 *   upstream drops while sending `502 upstream_dropped`; one beyond `maxUpstreamBodyBytes` `502 upstream_too_large`;
 * - an upstream redirect `502 upstream_redirect` (never followed, so the credentials go nowhere else);
 * - request errors always as the protocol's JSON `{ error: { code, message } }` (docs/protocol.md#request-errors):
 *   the upstream's own 4xx/5xx with its status (its message with the proxy's credential values redacted),
 *   `502 upstream_unreachable`.
 *
 * See docs/security.md for the threat model and every option.
 *
 * @example
 * // app/api/kestrel/[...path]/route.ts (Next.js)
 * const proxy = createKestrelProxy({
 *   upstream: process.env.KESTREL_URL!,
 *   basePath: '/api/kestrel',
 *   headers: { authorization: `Bearer ${process.env.KESTREL_API_KEY}` },
 *   authorize: async (request, route) => ((await userOwns(request, route)) ? undefined : errorResponse(404, 'not_found', 'No such run')),
 * });
 * export { proxy as GET, proxy as POST };
 */
export function createKestrelProxy(options: KestrelProxyOptions): FetchHandler {
  const resolved = resolveProxyOptions(options);
  const { base, basePath, forwarded, staticHeaders } = resolved;

  /** Runs an app hook; a throw is reported to `onError` and answered with `fallback`, never with its message. */
  async function hook<T>(
    stage: ProxyHookStage,
    request: Request,
    run: () => T | Promise<T>,
    fallback: () => Response,
  ): Promise<Step<T>> {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      resolved.onError(error, { request, stage });
      return { ok: false, response: fallback() };
    }
  }
  const hookFailed = () => errorResponse(500, 'proxy_error', 'The request could not be checked');

  /** Steps 2 to 4: the origin of a POST, the media type and size of a body, then the app's `authorize`. */
  async function admit(request: Request, route: KestrelRoute): Promise<Response | undefined> {
    // Every route is a GET or a POST, and every POST changes a run.
    if (request.method.toUpperCase() !== 'GET') {
      const refused = checkOrigin(request, resolved.allowedOrigins);
      if (refused !== undefined) return refused;
    }
    if (hasBody(route)) {
      const refused = checkContentType(request, resolved.maxBodyBytes);
      if (refused !== undefined) return refused;
    }
    if (options.authorize === undefined) return undefined;
    const { authorize } = options;
    const verdict = await hook('authorize', request, () => authorize(request, route), hookFailed);
    return verdict.ok ? verdict.value : verdict.response;
  }

  /** Step 5: the text Kestrel receives, built only from the parsed body (and `prepareBody`); none for a GET. */
  async function bodyFor(request: Request, route: KestrelRoute): Promise<Step<string | undefined>> {
    if (!hasBody(route)) return { ok: true, value: undefined };
    const check = await checkRequestBody(route, request, resolved.maxBodyBytes);
    if (!check.ok) return check;
    const { prepareBody } = options;
    const step = await hook(
      'prepareBody',
      request,
      async () => {
        if (prepareBody === undefined) return check.text;
        const prepared = await prepareBody(check.body, { request, route });
        return prepared instanceof Response ? prepared : JSON.stringify(prepared);
      },
      hookFailed,
    );
    if (!step.ok) return step;
    return step.value instanceof Response ? { ok: false, response: step.value } : { ok: true, value: step.value };
  }

  /** Step 6: the browser headers that may pass, then the app's credentials (`headers`, `getHeaders`). */
  async function headersFor(
    request: Request,
    route: KestrelRoute,
    body: string | undefined,
  ): Promise<Step<{ headers: Headers; credentials: Headers }>> {
    const headers = new Headers();
    for (const name of forwarded) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // Last-Event-ID means something only to a resume, and only as a seq: anything else stays behind.
    const lastEventId = headers.get('last-event-id');
    if (lastEventId !== null && (route.kind !== 'resume' || !/^[1-9][0-9]{0,15}$/.test(lastEventId)))
      headers.delete('last-event-id');
    if (body !== undefined) headers.set('content-type', 'application/json');
    staticHeaders.forEach((value, name) => headers.set(name, value));
    if (options.getHeaders === undefined) return { ok: true, value: { headers, credentials: new Headers() } };
    const { getHeaders } = options;
    const step = await hook(
      'getHeaders',
      request,
      async () => {
        const got = await getHeaders(request, route);
        return got instanceof Response ? got : toHeaders(got);
      },
      () => errorResponse(401, 'unauthorized', 'Not signed in, or not allowed to use Kestrel'),
    );
    if (!step.ok) return step;
    if (step.value instanceof Response) return { ok: false, response: step.value };
    step.value.forEach((value, name) => headers.set(name, value));
    return { ok: true, value: { headers, credentials: step.value } };
  }

  /** Steps 1 to 6, then the upstream call armed: shared by the web handler and createNodeListener's native path. */
  async function prepare(request: Request): Promise<Response | UpstreamCall> {
    const found = routeOf(request, basePath);
    if (!found.ok) return found.response;
    const route = found.value;
    const refused = await admit(request, route);
    if (refused !== undefined) return refused;
    const body = await bodyFor(request, route);
    if (!body.ok) return body.response;
    const built = await headersFor(request, route, body.value);
    if (!built.ok) return built.response;
    const redact = redactor(staticHeaders, built.value.credentials);

    // The browser may have left while a hook ran (a session lookup, a token exchange): a run started now would be
    // followed by nobody, and the person's next message refused with `409 run_in_progress`. The listener below hears
    // every later leave; an abort that already happened it would never hear.
    if (request.signal.aborted) return errorResponse(499, 'client_closed', 'The client went away');
    const target = new URL(`${base.pathname.replace(/\/+$/, '')}${upstreamPath(route)}`, base);
    const controls = upstreamControls(resolved.upstreamTimeoutMs);
    // The upstream stops both when the browser leaves and when the proxy ends early.
    request.signal.addEventListener('abort', controls.stop, { once: true });
    const { onRunStarted } = options;
    return {
      route,
      target,
      method: request.method.toUpperCase(),
      headers: built.value.headers,
      body: body.value,
      controls,
      context: {
        route,
        ...(onRunStarted !== undefined && hasBody(route)
          ? {
              onRunStarted: async (run) => {
                const step = await hook(
                  'onRunStarted',
                  request,
                  () => onRunStarted(run, { request, route }),
                  hookFailed,
                );
                if (!step.ok) throw new Error('onRunStarted failed');
              },
            }
          : {}),
        stopUpstream: controls.stop,
        maxBodyBytes: resolved.maxUpstreamBodyBytes,
        redact,
        onProtocolError: protocolErrorReporter(options.onProtocolError, request),
        silence: controls.silence,
      },
      failed: (error) => {
        if (request.signal.aborted) return errorResponse(499, 'client_closed', 'The client went away');
        if (controls.silence.timedOut()) return upstreamTimeout(resolved.upstreamTimeoutMs);
        // The reason names Kestrel's address (`connect ECONNREFUSED 10.0.3.7:8443`, `getaddrinfo ENOTFOUND
        // kestrel.internal`): the server's log gets it, the browser a fixed message.
        console.error(`[kestrel proxy] Kestrel could not be reached: ${redact((error as Error).message)}`);
        return errorResponse(502, 'upstream_unreachable', 'Kestrel could not be reached');
      },
      detach: () => request.signal.removeEventListener('abort', controls.stop),
    };
  }

  const handler: FetchHandler = async (request) => {
    const call = await prepare(request);
    if (call instanceof Response) return call;
    let upstream: Response;
    try {
      upstream = await resolved.fetch(call.target.href, {
        method: call.method,
        headers: call.headers,
        body: call.body,
        redirect: 'manual',
        signal: call.controls.signal,
      });
    } catch (error) {
      call.controls.clear();
      call.detach();
      return call.failed(error);
    }
    // A JSON answer has been read by now; an event stream is timed by the client's heartbeat, not here.
    return relayUpstream(upstream, call.context).finally(call.controls.clear);
  };
  // Only with the kit's own way upstream: an app's `fetch` is called as it is, through the web path.
  if (options.fetch === undefined) {
    const entry: NodeProxyEntry = { prepare };
    Object.defineProperty(handler, NODE_PROXY, { value: entry });
  }
  return handler;
}
