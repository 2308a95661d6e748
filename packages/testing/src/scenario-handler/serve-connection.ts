import { errorResponse, jsonResponse } from '@kestrel/core/internal';
import { RequestError } from './error-response.js';
import { playConnection, type ConnectionSink } from './play-connection.js';
import type { RequestContext } from './request-context.js';
import type { MockRun } from './mock-run.js';
import { createSSEBody, droppedConnectionError } from './sse-body.js';
import type { WireEvent } from '../event-factory.js';

export type ResponseMode = 'sse' | 'json';

/** `text/event-stream` or `application/json` from the Accept header; SSE when the client accepts anything. */
export function negotiate(request: Request): ResponseMode {
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  if (accept.includes('text/event-stream')) return 'sse';
  if (accept.includes('application/json')) return 'json';
  if (accept === '' || accept.includes('*/*')) return 'sse';
  throw new RequestError(
    406,
    'not_acceptable',
    `Accept must be text/event-stream or application/json, got "${accept}"`,
  );
}

function runHeaders(run: MockRun): Record<string, string> {
  return { 'x-kestrel-run-id': run.runId, 'x-kestrel-session-id': run.sessionId };
}

function connect(context: RequestContext) {
  const abort = new AbortController();
  const stopOnLeave = () => abort.abort();
  context.request.signal.addEventListener('abort', stopOnLeave, { once: true });
  const untrack = context.track(abort);
  const done = () => {
    untrack();
    context.request.signal.removeEventListener('abort', stopOnLeave);
  };
  return { abort, done };
}

/** Answers with one connection over `run` starting at `cursor`, as a stream or as the JSON route's single event. */
export async function serveConnection(
  context: RequestContext,
  run: MockRun,
  cursor: number,
  mode: ResponseMode,
): Promise<Response> {
  const { abort, done } = connect(context);
  const plan = {
    run,
    cursor,
    mode,
    faults: context.faults,
    delayMs: context.delayMs ?? run.delayMs ?? context.options.eventDelayMs,
    stallMs: context.options.stallMs,
    signal: abort.signal,
  };
  if (mode === 'sse') {
    const body = createSSEBody({
      keepAliveMs: context.options.keepAliveMs,
      abort,
      play: (sink) => playConnection(plan, sink),
      onDone: done,
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        ...runHeaders(run),
      },
    });
  }
  let terminal: WireEvent | undefined;
  let malformed = false;
  const sink: ConnectionSink = {
    silent: false,
    event(event, isMalformed) {
      if (event.type !== 'run.completed' || terminal !== undefined) return;
      terminal = event;
      malformed = isMalformed;
    },
    raw() {},
    ready: () => Promise.resolve(),
  };
  const end = await playConnection(plan, sink).finally(done);
  if (end === 'drop') {
    return new Response(new ReadableStream({ start: (controller) => controller.error(droppedConnectionError()) }), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', ...runHeaders(run) },
    });
  }
  if (terminal !== undefined) {
    if (malformed)
      return new Response(`{"type":"run.completed","seq":${terminal.seq},`, {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', ...runHeaders(run) },
      });
    return jsonResponse(200, terminal, { headers: runHeaders(run) });
  }
  if (end === 'aborted') return errorResponse(503, 'connection_closed', 'The request ended before the run settled.');
  return errorResponse(
    502,
    'run_incomplete',
    `Run "${run.runId}" ended without run.completed (last seq ${run.maxSeq()}): there is no result.`,
  );
}
