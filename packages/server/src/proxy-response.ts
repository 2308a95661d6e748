import { ProtocolError, parseRunCompletedEvent, requestErrorBodySchema, type KestrelRoute } from '@kestrel/core';
import { errorResponse } from './error-response.js';
import { sseHeaders } from './sse-headers.js';
import { validatedEventStream } from './validated-event-stream.js';

export interface RelayContext {
  readonly route: KestrelRoute;
  /** Told about a protocol error before the response ends or answers 502. */
  readonly onProtocolError: (error: ProtocolError) => void;
  /** Stops the upstream request (the browser left, or the proxy stopped reading). */
  readonly stopUpstream: () => void;
}

/**
 * Reads a whole upstream body, or `undefined` when the upstream dropped while sending it: the handler must still
 * answer (a rejected handler is the host's generic 500, not PROTOCOL's error body).
 */
async function readBody(upstream: Response): Promise<string | undefined> {
  try {
    return await upstream.text();
  } catch {
    return undefined;
  }
}

/** An upstream request error keeps its status; a body that is not PROTOCOL's error body is replaced by one. */
async function passError(upstream: Response): Promise<Response> {
  const text = (await readBody(upstream)) ?? '';
  try {
    const body = requestErrorBodySchema.parse(JSON.parse(text));
    return errorResponse(upstream.status, body.error.code, body.error.message);
  } catch {
    return errorResponse(upstream.status, 'upstream_error', `Kestrel answered ${upstream.status} without an error body`);
  }
}

/** The JSON route and the result: exactly one terminal event, validated, forwarded as Kestrel wrote it. */
async function relayTerminalEvent(upstream: Response, context: RelayContext): Promise<Response> {
  const text = await readBody(upstream);
  if (text === undefined) return errorResponse(502, 'upstream_dropped', 'Kestrel dropped the connection before the terminal event was complete: there is no result');
  try {
    parseRunCompletedEvent(JSON.parse(text));
  } catch (error) {
    const protocolError =
      error instanceof ProtocolError ? error : new ProtocolError(`the answer is not valid JSON (${(error as Error).message})`, { raw: text });
    context.onProtocolError(protocolError);
    return errorResponse(502, 'upstream_protocol_error', protocolError.message);
  }
  return new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}

/** Turns Kestrel's answer into the browser's, checking everything that carries events (see `createKestrelProxy`). */
export async function relayUpstream(upstream: Response, context: RelayContext): Promise<Response> {
  if (!upstream.ok) return passError(upstream);
  const contentType = upstream.headers.get('content-type') ?? '';

  if (contentType.startsWith('text/event-stream')) {
    if (upstream.body === null) return errorResponse(502, 'upstream_protocol_error', 'Kestrel sent an event stream without a body');
    const stream = validatedEventStream(upstream.body, {
      onProtocolError: (error) => {
        context.onProtocolError(error);
        context.stopUpstream();
      },
      onCancel: context.stopUpstream,
    });
    return new Response(stream, { status: upstream.status, headers: sseHeaders() });
  }

  if (context.route.kind === 'cancel') {
    // 202 with whatever small body Kestrel sent; there is no event to check. The status already says the cancel
    // was accepted, so a body lost to a drop changes nothing.
    const text = (await readBody(upstream)) ?? '';
    return new Response(text === '' ? null : text, {
      status: upstream.status,
      headers: contentType === '' ? {} : { 'content-type': contentType },
    });
  }

  if (!contentType.startsWith('application/json')) {
    return errorResponse(502, 'upstream_protocol_error', `Kestrel answered ${upstream.status} with "${contentType || 'no content type'}"`);
  }
  return relayTerminalEvent(upstream, context);
}
