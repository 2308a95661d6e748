import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { cutShort } from './cut-short.js';
import { incomingBodyStream } from './incoming-body-stream.js';
import { serveNodeProxy } from './node-proxy.js';
import { nodeProxyEntry } from './proxy-upstream-call.js';
import { MAX_TIMER_MS, watchForStall } from './stall-watch.js';

/** Where undici, and so Node's `fetch`, keeps the dispatcher `setGlobalDispatcher` installs. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * Whether the app routes `fetch` through a dispatcher of its own (an egress `ProxyAgent` or `EnvHttpProxyAgent`,
 * interceptors): `node:http` would bypass it, so the proxy takes the web path, through `fetch`. undici installs a
 * plain `Agent` on first use, which says nothing; an `Agent` the app configured itself (a CA, a client certificate)
 * cannot be told from that one, so such an app passes `fetch` to `createKestrelProxy` (docs/server.md).
 */
function routesFetchElsewhere(): boolean {
  const dispatcher = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  return typeof dispatcher === 'object' && dispatcher !== null && dispatcher.constructor?.name !== 'Agent';
}

/** A web-standard handler: the shape of Next.js route handlers, Hono, Remix and `fetch` itself. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A Host header as RFC 9110 allows it: a name or IPv4 address, or a bracketed IPv6 address, and a port. */
const VALID_HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The request's URL as the client addressed it (`https:` when this server terminates TLS itself), or `undefined`
 * when the Host header cannot be part of one.
 */
function requestUrl(req: IncomingMessage): URL | undefined {
  const authority = req.headers[':authority'];
  const host = req.headers.host ?? (typeof authority === 'string' ? authority : '127.0.0.1');
  if (!VALID_HOST.test(host)) return undefined;
  const origin = `${(req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http'}://${host}`;
  // Express's `app.use('/api/kestrel', listener)` strips its mount path from `url` and keeps the whole one here.
  const original = (req as { originalUrl?: unknown }).originalUrl;
  const target = typeof original === 'string' && original.startsWith('/') ? original : (req.url ?? '/');
  try {
    // Origin-form (`/v1/...`) is appended as is, so a target like `//other/v1` stays a path on this host.
    return target.startsWith('/') ? new URL(`${origin}${target}`) : new URL(target, origin);
  } catch {
    return undefined;
  }
}

function toRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2's pseudo-headers (`:method`, `:path`) are no header names a `Headers` takes; the URL holds them.
    if (name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    body: hasBody
      ? incomingBodyStream(req, {
          onCancel: 'discard',
          cutShort: 'The client closed the connection before the request body was complete',
        })
      : null,
    signal,
    // Node's fetch requires this for streaming request bodies.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** Headers that belong to one connection (RFC 9110 7.6.1): the server frames its own, and HTTP/2 refuses them. */
const CONNECTION_HEADERS = /^(?:connection|keep-alive|proxy-connection|transfer-encoding|upgrade|te|http2-settings)$/;

/**
 * A web `Headers` as Node writes them: connection headers left out (with those the `Connection` header names), each
 * cookie a header line of its own.
 */
function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = (headers.get('connection') ?? '').toLowerCase().split(',');
  headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.test(name) && !named.some((listed) => listed.trim() === name)) out[name] = value;
  });
  // `forEach` hands cookies over one by one under the same name (the last would win); `Headers` of other fetch
  // implementations may lack getSetCookie, and then joined is all there is.
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** Resolves once `res` can take more data, or once it closed (then the next read is cancelled anyway). */
/** Resolves `true` once `res` can take more (or is gone), `false` when its client took nothing for `timeoutMs`. */
function drained(res: ServerResponse, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(true); // 'close' already came and went
    const done = (taken: boolean) => () => {
      stopWatch();
      res.off('drain', drain);
      res.off('close', drain);
      resolve(taken);
    };
    const drain = done(true);
    const stopWatch = watchForStall(res, timeoutMs, done(false));
    res.on('drain', drain);
    res.on('close', drain);
  });
}

/** The most written to the client at once (see the body loop). */
const SLICE = 256 * 1024;

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * A client that takes nothing for this long while a response waits for it is cut off, and what feeds the
   * response (a proxied Kestrel stream) is cancelled: backpressure keeps memory bounded, this bounds the time.
   * A client reading slowly but steadily is never cut, however large the write. Default 60 s: a Kestrel client
   * gives up on a stream silent for 45 s and resumes on a new one. `Infinity` for no bound; at most 2^31 - 1 ms.
   */
  readonly stalledReaderTimeoutMs?: number;
}

/** Default {@link NodeListenerOptions.stalledReaderTimeoutMs}. */
const DEFAULT_STALLED_READER_TIMEOUT_MS = 60_000;

/**
 * Serves a web-standard handler from `node:http`. Response bodies are streamed chunk by chunk (SSE works) and
 * only as fast as the client reads them, the request's signal aborts when the client goes away, and a body stream
 * that errors destroys the socket, so the browser sees a dropped connection rather than a clean end.
 *
 * A proxy made by `createKestrelProxy` without its own `fetch` option is served on a native path: the same checks
 * and hooks (which still receive a web `Request`), then Kestrel over `node:http` and an event stream written
 * straight to the response, validated the same way, with no web stream in between. Its behaviour is the same.
 *
 * @example
 * http.createServer(createNodeListener((request) => new Response('ok'))).listen(3000);
 */
export function createNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}) {
  const stalledMs = options.stalledReaderTimeoutMs ?? DEFAULT_STALLED_READER_TIMEOUT_MS;
  if (
    stalledMs !== Number.POSITIVE_INFINITY &&
    (!Number.isInteger(stalledMs) || stalledMs <= 0 || stalledMs > MAX_TIMER_MS)
  )
    throw new RangeError(
      `createNodeListener: stalledReaderTimeoutMs must be a positive integer of at most ${MAX_TIMER_MS} ms, or Infinity; got ${stalledMs}`,
    );
  // A proxy of createKestrelProxy with the kit's own way upstream: the same checks, then node:http end to end.
  const native = nodeProxyEntry(handler);
  return async (
    nodeRequest: IncomingMessage | Http2ServerRequest,
    nodeResponse: ServerResponse | Http2ServerResponse,
  ): Promise<void> => {
    // HTTP/2's compatibility API offers everything read and written below (node-listener.test.ts serves it).
    const req = nodeRequest as IncomingMessage;
    const res = nodeResponse as ServerResponse;
    const abort = new AbortController();
    const onClose = () => abort.abort();
    res.on('close', onClose);
    // HTTP/2: a stream reset while its window is full is heard only as 'aborted' (the response's 'close' waits for
    // writes that will never drain, and so would the body's loop below): drop what is queued, too.
    const onAborted = () => {
      abort.abort();
      res.destroy();
    };
    req.once('aborted', onAborted);
    const url = requestUrl(req);
    if (url === undefined) {
      // Answered here: a handler could only build a broken URL from it (and a thrown `Invalid URL` is no 400).
      // HTTP/2 has no `connection` header (Node warns and drops it): there the stream ends with the answer anyway.
      const close = req.httpVersionMajor < 2 ? { connection: 'close' } : {};
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', ...close });
      res.end(JSON.stringify({ error: { code: 'invalid_host', message: 'The Host header is not a valid host' } }));
      return;
    }
    if (req.readableEnded && req.method !== 'GET' && req.method !== 'HEAD') {
      // A body parser (express.json()) read the body before us: the handler would wait for bytes that never come.
      console.error(
        '[kestrel] the request body was already read by other middleware: mount createNodeListener before body parsers',
      );
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({ error: { code: 'body_already_read', message: 'The server read this request body twice' } }),
      );
      return;
    }
    let response: Response | undefined;
    try {
      // Never a local of this frame: it lives on while the body is written, and must not keep the request.
      response = await (native === undefined || routesFetchElsewhere()
        ? handler(toRequest(req, url, abort.signal))
        : serveNodeProxy(
            native,
            toRequest(req, url, abort.signal),
            res,
            () => {
              res.off('close', onClose);
              req.off('aborted', onAborted);
            },
            stalledMs,
          ));
    } catch (error) {
      // The thrown message may hold anything (a credential, a file path): the log gets it, the client does not.
      console.error('[kestrel] the request handler threw', error);
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'internal', message: 'The server failed to answer this request' } }));
      return;
    }
    // Undefined: the native proxy answered with an event stream it writes itself.
    if (response === undefined) return;
    if (!req.complete) {
      // A body the handler did not read to the end (refused, or over its limit): close the connection after the
      // answer, and discard what still arrives meanwhile instead of holding it.
      res.shouldKeepAlive = false;
      res.once('finish', () => req.resume());
    }
    // Ours from here on: an 'aborted' heard after we cut the response would destroy() it, which resets with NO_ERROR.
    const drop = () => {
      req.off('aborted', onAborted);
      cutShort(res);
    };
    // `Response.error()` is a network error by definition: the client sees one (HTTP/2 would send it as a 200).
    if (response.type === 'error' || response.status === 0) return drop();
    try {
      res.writeHead(response.status, nodeHeaders(response.headers));
      res.flushHeaders();
    } catch (error) {
      // A head Node refuses (a header HTTP/2 forbids, say): the client sees a dropped connection and the log says
      // why, rather than a rejection nothing catches.
      console.error('[kestrel] the handler answered with a status or header Node cannot send', error);
      void response.body?.cancel().catch(() => undefined); // its producer (an upstream stream, say) stops too
      return drop();
    }
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    // The client may have left while the handler ran: the listener would never hear that, and the loop below would
    // read the whole body into a closed socket.
    if (abort.signal.aborted) return void reader.cancel().catch(() => undefined);
    abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Backpressure: read on only once the socket took this chunk, so a slow client is not buffered in memory
        // (and a producer that waits for its reader, like the mock Kestrel, really waits).
        // In slices: a `drain` then means a slice went out, so the stall bound measures a client that takes
        // nothing, not the time a large chunk takes a slow but steady reader.
        for (let at = 0; at < value.length; at += SLICE) {
          const slice = at === 0 && value.length <= SLICE ? value : value.subarray(at, at + SLICE);
          if (!res.write(slice) && !(await drained(res, stalledMs))) {
            void reader.cancel().catch(() => undefined); // what feeds it (a Kestrel stream) stops too
            return drop();
          }
        }
      }
      res.end();
    } catch {
      // The handler's stream failed (or was told to drop): cut the connection instead of ending it cleanly. Wait
      // a turn first: Node corks response writes until the next tick, and destroying now would discard events
      // that were already written.
      await new Promise<void>((resolve) => setImmediate(resolve));
      drop();
    }
  };
}
