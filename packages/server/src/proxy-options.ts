import {
  toHeaders,
  type InteractionAnswer,
  type KestrelHeaders,
  type KestrelRoute,
  type ProtocolError,
  type StartRunBody,
} from '@kestrel/core';
import { MAX_TIMER_MS } from './stall-watch.js';

/** The routes that carry a request body: a start and an answer. */
export type KestrelBodyRoute = Extract<KestrelRoute, { kind: 'start-run' | 'answer' }>;

/** What {@link KestrelProxyOptions.prepareBody} is told besides the body. */
export interface PrepareBodyContext {
  readonly request: Request;
  readonly route: KestrelBodyRoute;
}

/** The stage of the proxy whose app hook threw, as {@link KestrelProxyOptions.onError} hears it. */
export type ProxyHookStage = 'authorize' | 'getHeaders' | 'prepareBody' | 'onRunStarted';

/** The ids Kestrel gave the run a start (or an answer) created, as {@link KestrelProxyOptions.onRunStarted} hears them. */
export interface StartedRun {
  readonly runId: string;
  readonly sessionId: string;
}

/** Default {@link KestrelProxyOptions.maxBodyBytes}: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default {@link KestrelProxyOptions.maxUpstreamBodyBytes}: 16 MiB (a terminal event may hold a 10 MB text). */
export const DEFAULT_MAX_UPSTREAM_BODY_BYTES = 16 * 1024 * 1024;
/** Default {@link KestrelProxyOptions.upstreamTimeoutMs}: 2 minutes (a JSON-route run may send its headers last). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

/** Options of `createKestrelProxy`; only `upstream` is required. Every check is on by default. */
export interface KestrelProxyOptions {
  /** Where Kestrel answers `/v1/...`, e.g. `https://kestrel.internal:8443` (a path prefix is kept). */
  readonly upstream: string | URL;
  /** The app's own credentials, added to every upstream request (they override browser headers of the same name). */
  readonly headers?: KestrelHeaders;
  /**
   * Per-request credentials, e.g. a token for the signed-in user; runs after `authorize` and `headers`. Return a
   * `Response` to refuse the request (sent as is). If it throws, the browser gets `401 unauthorized` with a generic
   * message (never the thrown one) and `onError` hears the error.
   */
  readonly getHeaders?: (
    request: Request,
    route: KestrelRoute,
  ) => KestrelHeaders | Response | Promise<KestrelHeaders | Response>;
  /**
   * Decides whether this browser may use this resource, before the body is read and before anything leaves. Return
   * a `Response` (401, 403, 404...) to refuse (sent as is), or `undefined` to go on. `route` holds the parsed ids
   * (run, session, interaction), so an app can check that the signed-in user owns the run. Do not read the
   * request's body here. If it throws, the browser gets `500 proxy_error` with a generic message. Default: every
   * request that passes the other checks is allowed.
   */
  readonly authorize?: (request: Request, route: KestrelRoute) => Response | undefined | Promise<Response | undefined>;
  /**
   * Builds the body Kestrel receives from the checked one (unknown keys already dropped): add server-side fields
   * here, never from the browser. Return a `Response` to refuse. Default: the checked body as is.
   */
  readonly prepareBody?: (
    body: StartRunBody | InteractionAnswer,
    context: PrepareBodyContext,
  ) => Readonly<Record<string, unknown>> | Response | Promise<Readonly<Record<string, unknown>> | Response>;
  /**
   * Told, and awaited, when Kestrel names the run that a start or an answer created, before the browser hears of
   * it: record here who owns it, so `authorize` can check the browser's later requests (resume, cancel, result,
   * answer). If it throws, the browser gets no event of that run (the stream is cut; the JSON route answers `500
   * proxy_error`) and `onError` hears the error.
   */
  readonly onRunStarted?: (run: StartedRun, context: PrepareBodyContext) => void | Promise<void>;
  /**
   * Origins besides the request's own that may send state-changing requests (POST), e.g. `['https://app.example']`
   * when a TLS-terminating proxy in front, or Next.js (whose `request.url` says `localhost`), makes the request URL
   * differ from what the browser sees. Not a way to serve a UI from another origin: its JSON POSTs need a CORS
   * preflight, which the proxy never grants. Default: none (same origin only).
   */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body accepted, in bytes; larger ones get 413 as soon as they exceed it. Default: 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The largest upstream JSON answer (the JSON route, `/result`, the listing, cancel and error bodies) relayed, in
   * bytes; larger ones get `502 upstream_too_large`. In an event stream it bounds one event. Default: 16 MiB.
   */
  readonly maxUpstreamBodyBytes?: number;
  /**
   * The longest the proxy waits on Kestrel in silence: for the answer's headers, then between the bytes of a JSON
   * answer; `504 upstream_timeout` beyond it. Event streams are not timed here (the client's heartbeat is). The
   * JSON route sends its headers when the run settles, so a run that takes longer needs a larger value. At most
   * 2^31 - 1 (about 24.8 days, the longest a timer holds), or `Infinity` for no bound. Default: 2 min.
   */
  readonly upstreamTimeoutMs?: number;
  /** The path the proxy is mounted under, e.g. `/api/kestrel` for `/api/kestrel/v1/...`. Default: none. */
  readonly basePath?: string;
  /** More browser headers to forward besides `accept` and `last-event-id`. */
  readonly forwardHeaders?: readonly string[];
  /** The `fetch` used upstream (it must honour `redirect: 'manual'`). Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Told when the upstream breaks the protocol (the response then ends, see `createKestrelProxy`).
   * Default: `console.error`.
   */
  readonly onProtocolError?: (error: ProtocolError, request: Request) => void;
  /** Told when an app hook (`authorize`, `getHeaders`, `prepareBody`, `onRunStarted`) throws. Default: `console.error`. */
  readonly onError?: (error: unknown, context: { readonly request: Request; readonly stage: ProxyHookStage }) => void;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`createKestrelProxy: ${name} must be a positive integer of bytes, got ${value}`);
  return value;
}

/**
 * A bound in ms that a timer can hold (a longer one would fire after 1 ms in Node and in browsers), or `Infinity` for
 * none: an app that turns the bound off says so.
 */
function timeoutMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (value !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(value) || value <= 0 || value > MAX_TIMER_MS))
    throw new RangeError(
      `createKestrelProxy: ${name} must be a positive integer of at most ${MAX_TIMER_MS} ms, or Infinity for none; got ${value}`,
    );
  return value;
}

/** The origins of `allowedOrigins`, each checked to be a bare origin (`https://app.example`, no path or `*`). */
function originsOf(list: readonly string[]): ReadonlySet<string> {
  return new Set(
    list.map((entry, index) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      if (url === undefined || url.origin === 'null' || url.origin !== entry.replace(/\/$/, '')) {
        throw new TypeError(
          `createKestrelProxy: allowedOrigins[${index}] "${entry}" is not an origin like "https://app.example"`,
        );
      }
      return url.origin;
    }),
  );
}

/**
 * Headers that frame the request or the connection rather than say something to Kestrel: the proxy sets its own
 * length for the body it rebuilt, and a browser's `content-length` or `transfer-encoding` sent with another body
 * would desynchronise a reused upstream connection; Kestrel's answers are read uncompressed, so a browser's
 * `accept-encoding` would make every JSON answer unreadable to the proxy.
 */
const UNFORWARDABLE =
  /^(?:content-length|transfer-encoding|accept-encoding|connection|keep-alive|upgrade|te|trailer|expect|host|proxy-.*)$/;

function forwardable(names: readonly string[]): string[] {
  return names.map((name, index) => {
    const lower = name.toLowerCase();
    if (UNFORWARDABLE.test(lower))
      throw new TypeError(
        `createKestrelProxy: forwardHeaders[${index}] "${name}" frames the request or the connection; the proxy sets it itself`,
      );
    return lower;
  });
}

/**
 * Kestrel's base URL, checked when the proxy is created rather than on every request (where a bad one was a bare
 * 500). The value is never echoed: an upstream URL may carry a secret.
 */
function upstreamUrl(value: string | URL | undefined): URL {
  let url: URL | undefined;
  const unset = value === undefined || value === '';
  try {
    url = unset ? undefined : new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new TypeError(
      `createKestrelProxy: upstream must be Kestrel's absolute http: or https: URL, such as http://kestrel.internal:8080 ${
        unset
          ? `(it is ${value === '' ? 'empty' : 'undefined'}: is its environment variable set?)`
          : '(a scheme is required)'
      }`,
    );
  if (url.search !== '' || url.hash !== '')
    throw new TypeError(
      'createKestrelProxy: upstream must not carry a query or fragment (every forwarded path replaces them); pass credentials as `headers`',
    );
  if (url.username !== '' || url.password !== '')
    throw new TypeError(
      'createKestrelProxy: upstream must not carry credentials in its URL; pass them as `headers` (authorization)',
    );
  if (/\/v1\/*$/i.test(url.pathname))
    console.warn(
      '[kestrel proxy] upstream ends in /v1, but every path the proxy forwards starts with /v1 already (/v1/runs/…), so requests go to …/v1/v1/…. Leave /v1 out of upstream.',
    );
  return url;
}

/** The options with their defaults, checked once when the proxy is created. */
export function resolveProxyOptions(options: KestrelProxyOptions) {
  return {
    base: upstreamUrl(options.upstream),
    basePath: (options.basePath ?? '').replace(/\/+$/, ''),
    forwarded: ['accept', 'last-event-id', ...forwardable(options.forwardHeaders ?? [])],
    allowedOrigins: originsOf(options.allowedOrigins ?? []),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    maxUpstreamBodyBytes: positiveInteger(
      options.maxUpstreamBodyBytes,
      DEFAULT_MAX_UPSTREAM_BODY_BYTES,
      'maxUpstreamBodyBytes',
    ),
    upstreamTimeoutMs: timeoutMs(options.upstreamTimeoutMs, DEFAULT_UPSTREAM_TIMEOUT_MS, 'upstreamTimeoutMs'),
    staticHeaders: toHeaders(options.headers),
    fetch: options.fetch ?? fetch,
    onError:
      options.onError ??
      ((error: unknown, context: { readonly stage: ProxyHookStage }) =>
        console.error(`[kestrel proxy] ${context.stage} threw`, error)),
  };
}
