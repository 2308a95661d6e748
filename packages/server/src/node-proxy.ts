import type { KestrelRoute } from '@kestrel/core';
import { errorResponse } from '@kestrel/core/internal';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { relayNodeEventStream } from './node-event-relay.js';
import { headerRecord, toResponse } from './node-fetch.js';
import { relayUpstream } from './proxy-response.js';
import type { NodeProxyEntry, UpstreamCall } from './proxy-upstream-call.js';
import { sseHeaders } from './sse-headers.js';

const ignore = () => undefined;

interface UpstreamAnswer {
  readonly request: ClientRequest;
  readonly response: IncomingMessage;
  /** Stops the call's abort from reaching the request: the relay of an event stream watches the browser itself. */
  readonly unhook: () => void;
}

/**
 * Sends the call over `node:http`/`node:https` as nodeFetch does (redirects never followed, no `accept-encoding`
 * added) and resolves with the answer's head. The call's abort (the browser left, the timeout) destroys it.
 */
function sendUpstream(call: UpstreamCall): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const send = call.target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(call.target, { method: call.method, headers: headerRecord(call.headers) });
    const { signal } = call.controls;
    const abort = () => request.destroy(new Error('The upstream request was stopped'));
    signal.addEventListener('abort', abort, { once: true });
    const unhook = () => signal.removeEventListener('abort', abort);
    // A `101` is heard only as 'upgrade', and Node then destroys the socket without an 'error': without these the
    // promise would never settle and the browser would wait forever.
    const upgraded = (_response: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      reject(new Error('Kestrel answered with a protocol switch (101)'));
    };
    const closed = () => reject(new Error('The upstream connection closed before an answer'));
    request.once('response', (response) => {
      // After the answer its stream hears any error; this listener only keeps one from being unhandled. The
      // rejecting ones go: through the settled promise they would keep the whole call (and the browser's request).
      request.off('error', reject).off('upgrade', upgraded).off('close', closed).on('error', ignore);
      resolve({ request, response, unhook });
    });
    request.on('error', reject);
    request.once('upgrade', upgraded);
    request.once('close', closed);
    if (signal.aborted) abort();
    request.end(call.body);
  });
}

/** The routes whose answer is an event stream the proxy relays message by message. */
const streams = (route: KestrelRoute) =>
  route.kind === 'start-run' || route.kind === 'answer' || route.kind === 'resume';

/** A 2xx event stream with a body on a streaming route: what relayUpstream relays with validatedEventStream. */
function isEventStream(call: UpstreamCall, response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  return (
    status >= 200 &&
    status < 300 &&
    status !== 204 &&
    status !== 205 &&
    (response.headers['content-type'] ?? '').startsWith('text/event-stream') &&
    streams(call.route)
  );
}

/**
 * Serves one request through a proxy's native entry: the same checks (`prepare`), then Kestrel over `node:http`. An
 * event stream is written straight to `res` (resolves `undefined`: answered); anything else is relayed as the web
 * handler relays it and comes back as the `Response` to write. `detach` is called once the stream relay watches the
 * browser itself, so an open stream keeps nothing of the browser's web `Request`.
 */
export async function serveNodeProxy(
  entry: NodeProxyEntry,
  request: Request,
  res: ServerResponse,
  detach: () => void,
  stalledReaderTimeoutMs: number,
): Promise<Response | undefined> {
  const call = await entry.prepare(request);
  if (call instanceof Response) return call;
  let answer: UpstreamAnswer;
  try {
    answer = await sendUpstream(call);
  } catch (error) {
    call.controls.clear();
    call.detach();
    return call.failed(error);
  }
  const { context } = call;
  const status = answer.response.statusCode ?? 0;
  if (status < 200 || status > 599) {
    // No `Response` can carry it (and a 1xx other than 101 is Node's to swallow): a protocol error, not a crash.
    answer.request.destroy();
    call.controls.clear();
    answer.unhook();
    return errorResponse(502, 'upstream_protocol_error', `Kestrel answered with status ${status}`);
  }
  if (!isEventStream(call, answer.response)) {
    return relayUpstream(toResponse(answer.response), context).finally(() => {
      call.controls.clear();
      answer.unhook();
    });
  }
  // From here the relay watches both ends itself: no timer (the client's heartbeat times a stream), no signal.
  call.controls.clear();
  call.detach();
  answer.unhook();
  detach();
  if (request.signal.aborted) {
    answer.request.destroy(); // the browser left while the head was on its way
    return undefined;
  }
  res.writeHead(answer.response.statusCode ?? 200, headerRecord(sseHeaders()));
  res.flushHeaders();
  const { onRunStarted } = context;
  relayNodeEventStream(answer.request, answer.response, res, {
    maxMessageBytes: context.maxBodyBytes,
    onProtocolError: context.onProtocolError,
    stalledReaderTimeoutMs,
    ...(onRunStarted === undefined
      ? {}
      : { onFirstEvent: (event) => onRunStarted({ runId: event.runId, sessionId: event.sessionId }) }),
  });
  return undefined;
}
