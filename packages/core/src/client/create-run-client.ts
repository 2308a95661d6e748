import { parseRunCompletedEvent } from '../protocol/parse-run-event.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import type { RunCompletedEvent } from '../protocol/types.js';
import { toProtocolRunError } from '../run/protocol-run-error.js';
import { createInitialRunState, type RetainEvents } from '../run/run-state.js';
import { settledRunState } from '../run/result-actions.js';
import { resolveReconnectPolicy } from './backoff.js';
import { DEFAULT_HEARTBEAT_TIMEOUT_MS, openEvents } from './follow-run.js';
import { defaultFrameScheduler } from './frame-scheduler.js';
import { warnOnce } from '../dev-warning.js';
import { createHttp, positive, type Http } from './http.js';
import { resolveMotionSchedule } from './motion-schedule.js';
import { idSegment } from './resource-id.js';
import { RunClientError } from './run-client-error.js';
import { createRunHandle, type HandleDeps } from './run-handle.js';
import type { JsonRunOptions, RunClient, RunClientOptions, StartRunOptions } from './types.js';

function runsPath(sessionId: string | undefined): string {
  return `/v1/sessions/${idSegment('session id', sessionId ?? 'new')}/runs`;
}

/** The `retainEvents` option, checked: a JavaScript caller may pass anything. */
function readRetainEvents(value: unknown): RetainEvents {
  if (value === undefined || value === 'all' || value === 'structural') return value ?? 'all';
  throw new RangeError(`retainEvents must be 'all' or 'structural', got ${JSON.stringify(value) ?? String(value)}`);
}

/** `/events` answers that mean "these events cannot be had here", where the result may still be. */
function eventsGone(error: RunClientError): boolean {
  return error.status === 404 || error.status === 410;
}

function startBody(options: StartRunOptions | JsonRunOptions) {
  return options.responseFormat === undefined
    ? { input: options.input }
    : { input: options.input, responseFormat: options.responseFormat };
}

/** Parses the one terminal event of a JSON answer; anything else is a typed protocol error. */
function parseTerminalEvent(text: string, what: string, runId?: string): RunCompletedEvent {
  try {
    const event = parseRunCompletedEvent(JSON.parse(text));
    // Another run's outcome is never this one's (a server or cache answering for the wrong id).
    if (runId !== undefined && event.runId !== runId)
      throw new ProtocolError(`${what} answered with run "${event.runId}"`, { seq: event.seq, path: ['runId'] });
    return event;
  } catch (cause) {
    const error =
      cause instanceof ProtocolError
        ? cause
        : new ProtocolError(`${what} is not valid JSON (${(cause as Error).message})`, { raw: text });
    throw new RunClientError(toProtocolRunError(error), { cause });
  }
}

/**
 * The run client: starts runs over SSE (with resume, cancel, detach and answers) or over the JSON route. No
 * React and no DOM: it runs in browsers, Node, workers and edge runtimes.
 *
 * @example
 * const client = createRunClient({ baseUrl: 'https://kestrel.example.com' });
 * const handle = client.start({ input: 'Summarise this PDF' });
 * handle.subscribe(() => render(handle.getState()));
 * const done = await handle.result; // run.completed, whatever its output status
 * @throws {RangeError} when a `reconnect` or `motion` option is out of range, naming it, or `retainEvents` is
 *   neither `'all'` nor `'structural'` (`start` and `resume` check their own the same way).
 */
export function createRunClient(options: RunClientOptions): RunClient {
  const http = createHttp(options);
  // Development only (see warnOnce): every path already starts with /v1, so this base doubles it into a 404.
  try {
    if (process.env.NODE_ENV !== 'production' && /\/v1\/*$/.test(options.baseUrl))
      warnOnce(
        'baseUrl ends in /v1, but the client adds /v1 to every path itself (POST /v1/sessions/…/runs), so requests go to …/v1/v1/…. Leave /v1 out of baseUrl.',
      );
  } catch {
    // Neither a bundler's define nor a `process` (a plain ES module in a browser): no warning, no error.
  }
  const retainEvents = readRetainEvents(options.retainEvents);
  const deps: HandleDeps = {
    http,
    policy: resolveReconnectPolicy(options.reconnect),
    heartbeatTimeoutMs: positive('heartbeatTimeoutMs', options.heartbeatTimeoutMs, DEFAULT_HEARTBEAT_TIMEOUT_MS),
    scheduler: options.scheduler ?? defaultFrameScheduler(),
    motion: resolveMotionSchedule(options.motion),
  };

  /** `/result` through `via` (an attempt's HTTP side, which reports to its transport listeners). */
  const readResult = async (via: Http, runId: string, signal?: AbortSignal): Promise<RunCompletedEvent | null> => {
    const path = `/v1/runs/${idSegment('run id', runId)}/result`;
    let text: string;
    try {
      text = await via.sendForText({ method: 'GET', path, accept: 'application/json', signal, runId });
    } catch (error) {
      // 404 and 409 are how the protocol says "not settled yet" (docs/protocol.md#resources).
      if (error instanceof RunClientError && (error.status === 404 || error.status === 409)) return null;
      throw error;
    }
    return parseTerminalEvent(text, `GET /v1/runs/${runId}/result`, runId);
  };
  const fetchResult: RunClient['fetchResult'] = (runId, request = {}) => readResult(http, runId, request.signal);

  return {
    options,
    fetchResult,
    start(start) {
      const path = runsPath(start.sessionId); // an unusable session id throws here, before a handle exists
      // Development only (see warnOnce): a server sends a payload only when structured output was requested.
      try {
        if (
          process.env.NODE_ENV !== 'production' &&
          start.payloadSchema !== undefined &&
          start.responseFormat === undefined
        )
          warnOnce(
            "A run started with a payloadSchema but no responseFormat, so no structured output was requested: a server that follows the protocol sends no payload and there is nothing to check or render. Pass responseFormat too, e.g. useRun({ payloadSchema: schema, responseFormat: { type: 'json_schema', name: 'result', schema: z.toJSONSchema(schema) } }).",
          );
      } catch {
        // As above: no define and no `process`.
      }
      return createRunHandle(deps, {
        initial: createInitialRunState({
          payloadSchema: start.payloadSchema,
          retainEvents: readRetainEvents(start.retainEvents ?? retainEvents),
        }),
        start: { type: 'client/start-requested', mode: 'start' },
        signal: start.signal,
        begin: async (signal, io) => ({
          kind: 'stream',
          response: await io.http.send({
            method: 'POST',
            path,
            accept: 'text/event-stream',
            body: startBody(start),
            signal,
          }),
        }),
      });
    },
    resume(resume) {
      const { runId } = resume;
      idSegment('run id', runId); // thrown here rather than reported as a failed connection
      if (resume.result !== undefined) {
        if (resume.result.runId !== runId)
          throw new RangeError(`result is the terminal event of run "${resume.result.runId}", not of "${runId}"`);
        const settled = resume.result;
        return createRunHandle(deps, {
          initial: settledRunState(settled, resume.payloadSchema),
          start: null,
          begin: () => Promise.resolve({ kind: 'settled', event: settled }),
        });
      }
      return createRunHandle(deps, {
        initial: createInitialRunState({
          payloadSchema: resume.payloadSchema,
          retainEvents: readRetainEvents(resume.retainEvents ?? retainEvents),
        }),
        start: { type: 'client/start-requested', mode: 'resume', runId, lastSeq: resume.lastSeq },
        readResult: (signal, io) => readResult(io.http, runId, signal),
        begin: async (signal, io) => {
          // The events first, live or settled (WAITING included): replaying the attempt rebuilds everything the
          // state held before the reload (text, tools, activity, finishReason). The result alone is the fallback
          // for a server that no longer has the events, and it leaves finishReason unknown.
          try {
            return { kind: 'stream', response: await openEvents(io.http, runId, resume.lastSeq, signal) };
          } catch (error) {
            if (!(error instanceof RunClientError) || !eventsGone(error)) throw error;
            const settled = await readResult(io.http, runId, signal);
            if (io.tap.active) io.tap.emit({ type: 'result', reason: 'events-gone', event: settled });
            // An outcome before the last event seen is an earlier attempt's: never this one's, nor a rewind.
            if (settled === null || settled.seq < (resume.lastSeq ?? 0)) throw error;
            return { kind: 'settled', event: settled };
          }
        },
      });
    },
    async run(run) {
      const text = await http.sendForText({
        method: 'POST',
        path: runsPath(run.sessionId),
        accept: 'application/json',
        body: startBody(run),
        signal: run.signal,
      });
      return parseTerminalEvent(text, 'The JSON route answer');
    },
  };
}
