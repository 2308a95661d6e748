import {
  ProtocolError,
  parseRunCompletedEvent,
  parseRunListPage,
  type RunListPage,
  requestErrorBodySchema,
  type KestrelRoute,
  type RunCompletedEvent,
} from '@kestrel/core';
import { errorResponse, readLimited } from '@kestrel/core/internal';
import type { StartedRun } from './proxy-options.js';
import { sseHeaders } from './sse-headers.js';
import { validatedEventStream } from './validated-event-stream.js';

export interface RelayContext {
  readonly route: KestrelRoute;
  /** Told about a protocol error before the response ends or answers 502. */
  readonly onProtocolError: (error: ProtocolError) => void;
  /** Stops the upstream request (the browser left, or the proxy stopped reading). */
  readonly stopUpstream: () => void;
  /** The largest upstream body read whole; beyond it the answer is `502 upstream_too_large`. */
  readonly maxBodyBytes: number;
  /** Removes the proxy's own credentials from a message relayed to the browser. */
  readonly redact: (message: string) => string;
  /** Awaited with the ids of the run a start or an answer created, before the browser sees any of it; may reject. */
  readonly onRunStarted?: (run: StartedRun) => Promise<void>;
  /** The upstream silence timer: reset by every byte of a body read whole, `timedOut` once it fired. */
  readonly silence?: { readonly reset: () => void; readonly timedOut: () => boolean; readonly timeoutMs: number };
}

/** Kestrel stayed silent past `upstreamTimeoutMs`. */
export function upstreamTimeout(timeoutMs: number): Response {
  return errorResponse(504, 'upstream_timeout', `Kestrel sent nothing for ${timeoutMs} ms`);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

type BodyText = { ok: true; text: string } | { ok: false; response: Response };

/**
 * Reads a whole upstream body, up to the limit. A drop while sending or an oversized body becomes a 502 the handler
 * returns: it must still answer (a rejected handler is the host's generic 500, not the protocol's error body of docs/protocol.md#request-errors).
 */
async function readBody(upstream: Response, context: RelayContext, what: string): Promise<BodyText> {
  const read = await readLimited(upstream.body, context.maxBodyBytes, context.silence?.reset);
  switch (read.kind) {
    case 'complete':
      return { ok: true, text: new TextDecoder().decode(read.bytes) };
    case 'too-large':
      context.stopUpstream();
      return {
        ok: false,
        response: errorResponse(
          502,
          'upstream_too_large',
          `Kestrel's ${what} is larger than ${context.maxBodyBytes} bytes`,
        ),
      };
    case 'dropped':
      if (context.silence?.timedOut() === true)
        return { ok: false, response: upstreamTimeout(context.silence.timeoutMs) };
      return {
        ok: false,
        response: errorResponse(
          502,
          'upstream_dropped',
          `Kestrel dropped the connection before its ${what} was complete`,
        ),
      };
    default:
      return read satisfies never;
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * An upstream request error keeps its status, always as the JSON error body of docs/protocol.md#request-errors (never the upstream's HTML on
 * the app's origin), its message without the proxy's credentials.
 */
async function passError(upstream: Response, context: RelayContext): Promise<Response> {
  const body = await readBody(upstream, context, 'error body');
  if (!body.ok) return body.response;
  const parsed = requestErrorBodySchema.safeParse(parseJson(body.text));
  if (!parsed.success)
    return errorResponse(
      upstream.status,
      'upstream_error',
      `Kestrel answered ${upstream.status} without an error body`,
    );
  // A code is an identifier the browser branches on; anything else (a code carrying a key, text, markup) is not relayed.
  const code = UPSTREAM_CODE.test(parsed.data.error.code) ? context.redact(parsed.data.error.code) : 'upstream_error';
  return errorResponse(upstream.status, code, context.redact(parsed.data.error.message));
}

/** What an upstream error code may look like to be relayed as is. */
const UPSTREAM_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The JSON route and the result: exactly one terminal event, validated, forwarded as Kestrel wrote it. */
async function relayTerminalEvent(upstream: Response, context: RelayContext): Promise<Response> {
  const body = await readBody(upstream, context, 'terminal event');
  if (!body.ok) return body.response;
  let event: RunCompletedEvent;
  try {
    event = parseRunCompletedEvent(JSON.parse(body.text));
  } catch (error) {
    const protocolError =
      error instanceof ProtocolError
        ? error
        : new ProtocolError(`the answer is not valid JSON (${(error as Error).message})`, { raw: body.text });
    context.onProtocolError(protocolError);
    return errorResponse(502, 'upstream_protocol_error', context.redact(protocolError.message));
  }
  if (context.onRunStarted !== undefined) {
    try {
      await context.onRunStarted({ runId: event.runId, sessionId: event.sessionId });
    } catch {
      return errorResponse(500, 'proxy_error', 'The run could not be recorded');
    }
  }
  return new Response(body.text, { status: 200, headers: JSON_HEADERS });
}

/**
 * The session listing: validated as the client validates it (each run of this session, each `result` a terminal event
 * of its run, each answer an answer), and sent on as the proxy parsed it. A page that breaks the protocol is a 502
 * naming the field, never forwarded.
 */
async function relayListing(upstream: Response, context: RelayContext, sessionId: string): Promise<Response> {
  const body = await readBody(upstream, context, 'run listing');
  if (!body.ok) return body.response;
  let page: RunListPage;
  try {
    page = parseRunListPage(JSON.parse(body.text), sessionId);
  } catch (error) {
    const protocolError =
      error instanceof ProtocolError
        ? error
        : new ProtocolError(`the session listing is not valid JSON (${(error as Error).message})`, { raw: body.text });
    context.onProtocolError(protocolError);
    return errorResponse(502, 'upstream_protocol_error', context.redact(protocolError.message));
  }
  let text: string;
  try {
    text = JSON.stringify(page);
  } catch {
    // Unknown keys are kept, and one nested past JSON.stringify's stack would otherwise leave the browser no answer.
    const protocolError = new ProtocolError('the session listing is nested too deeply to relay', { raw: body.text });
    context.onProtocolError(protocolError);
    return errorResponse(502, 'upstream_protocol_error', protocolError.message);
  }
  return new Response(text, { status: upstream.status, headers: JSON_HEADERS });
}

/**
 * A cancel's 2xx: its status and no body. The protocol defines none, so nothing in one could be checked, and a body
 * can carry anything (a debug echo of the proxy's own headers, say): it is read, bounded, and dropped.
 */
async function relayCancel(upstream: Response, context: RelayContext): Promise<Response> {
  // The status already says the cancel was accepted, so a body lost to a drop changes nothing.
  await readBody(upstream, context, 'cancel answer');
  return new Response(null, { status: upstream.status, headers: { 'cache-control': 'no-store' } });
}

/** Turns Kestrel's answer into the browser's, checking everything that carries events (see `createKestrelProxy`). */
export async function relayUpstream(upstream: Response, context: RelayContext): Promise<Response> {
  // A status no `Response` can carry (a fetch may still report one): relayed as is it would throw here.
  if (upstream.status < 200 || upstream.status > 599) {
    context.stopUpstream();
    return errorResponse(502, 'upstream_protocol_error', `Kestrel answered with status ${upstream.status}`);
  }
  // Never followed (`redirect: 'manual'`): a redirect could send the proxy's credentials anywhere.
  if (upstream.type === 'opaqueredirect' || (upstream.status >= 300 && upstream.status < 400)) {
    context.stopUpstream();
    return errorResponse(
      502,
      'upstream_redirect',
      `Kestrel answered with a redirect (${upstream.status}); the proxy does not follow redirects`,
    );
  }
  if (!upstream.ok) return passError(upstream, context);
  const contentType = upstream.headers.get('content-type') ?? '';

  if (
    contentType.startsWith('text/event-stream') &&
    (context.route.kind === 'start-run' || context.route.kind === 'answer' || context.route.kind === 'resume')
  ) {
    if (upstream.body === null)
      return errorResponse(502, 'upstream_protocol_error', 'Kestrel sent an event stream without a body');
    const { onRunStarted } = context;
    const stream = validatedEventStream(upstream.body, {
      onProtocolError: (error) => {
        // Stopped first: an app's reporter that throws must not leave the upstream open.
        context.stopUpstream();
        context.onProtocolError(error);
      },
      onCancel: context.stopUpstream,
      maxMessageBytes: context.maxBodyBytes,
      ...(onRunStarted === undefined
        ? {}
        : { onFirstEvent: (event) => onRunStarted({ runId: event.runId, sessionId: event.sessionId }) }),
    });
    return new Response(stream, { status: upstream.status, headers: sseHeaders() });
  }

  if (context.route.kind === 'cancel') return relayCancel(upstream, context);
  if (!contentType.startsWith('application/json')) {
    context.stopUpstream();
    return errorResponse(
      502,
      'upstream_protocol_error',
      // Redacted like every other text of Kestrel's relayed (a header value can hold a credential too), then cut:
      // cut first, a secret across the cut would no longer match and its start would pass.
      `Kestrel answered ${upstream.status} with "${context.redact(contentType).slice(0, 100) || 'no content type'}"`,
    );
  }
  return context.route.kind === 'list-runs'
    ? relayListing(upstream, context, context.route.sessionId)
    : relayTerminalEvent(upstream, context);
}
