import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { incomingBodyStream } from './incoming-body-stream.js';

/** Statuses whose response has no body, which a `Response` refuses one for. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A `node:http` answer as a web `Response`, its body read only as fast as the reader reads it. */
export function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    res.on('error', () => undefined); // nothing reads it: a reset after the head has no one to tell
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? '', headers });
  }
  const body = incomingBodyStream(res, {
    onCancel: 'destroy',
    cutShort: 'The upstream closed the connection mid-body',
  });
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

/** Headers as `node:http` takes them. */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/**
 * A `fetch` for `createKestrelProxy({ fetch: nodeFetch })` on Node, over `node:http` and `node:https` instead of
 * the global `fetch` (undici): what an open stream holds and what each relayed byte costs are both smaller. It does
 * what the proxy asks of a `fetch` and no more: a string body or none, the request's headers as given (no
 * `accept-encoding` added, so nothing comes back compressed), redirects never followed (a 3xx comes back as it is,
 * which the proxy refuses), and `signal` aborting the request or its body. Anything else it is asked (a `Request`
 * as input, another body type, `redirect` other than `manual`) is refused with a TypeError, never half done.
 */
export const nodeFetch = ((input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  if (typeof input !== 'string' && !(input instanceof URL))
    return Promise.reject(new TypeError('nodeFetch takes a URL and options, not a Request'));
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== 'string')
    return Promise.reject(new TypeError('nodeFetch sends a string body or none'));
  if (init.redirect !== undefined && init.redirect !== 'manual')
    return Promise.reject(
      new TypeError(`nodeFetch never follows redirects: redirect must be "manual", not "${init.redirect}"`),
    );
  const url = new URL(input);
  const headers = headerRecord(new Headers(init.headers));
  return new Promise<Response>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: init.method ?? 'GET',
      headers,
      ...(init.signal ? { signal: init.signal } : {}),
    });
    request.once('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status <= 599) return resolve(toResponse(res));
      // No `Response` can carry it: refused as fetch refuses what it cannot represent, never a throw in a listener.
      res.destroy();
      reject(new TypeError(`nodeFetch: the server answered with status ${status}, outside 200 to 599`));
    });
    // Before the answer: the promise rejects; after it, the body stream hears it (and this is a no-op). A `101` is
    // heard only as 'upgrade' (Node then destroys the socket without an 'error'), and a socket closed before any
    // answer only as 'close': both reject, so the call never waits forever.
    request.on('error', reject);
    request.once('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new TypeError('nodeFetch: the server switched protocols (101)'));
    });
    request.once('close', () => reject(new TypeError('nodeFetch: the connection closed before an answer')));
    request.end(body ?? undefined);
  });
}) as typeof fetch;
