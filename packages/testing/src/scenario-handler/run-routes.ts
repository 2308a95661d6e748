import { formatPath, protocolErrorMap, startRunBodySchema } from '@kestrel/core';
import { jsonResponse } from '@kestrel/core/internal';
import { RequestError } from './error-response.js';
import { readJsonBody } from './read-json-body.js';
import type { RequestContext } from './request-context.js';
import { SCENARIO_HEADER, selectScenario } from './select-scenario.js';
import { negotiate, serveConnection } from './serve-connection.js';

/** `POST /v1/sessions/{sessionId}/runs`: a new run of the chosen scenario, streamed or as one terminal event. */
export async function startRun(context: RequestContext, sessionId: string): Promise<Response> {
  const mode = negotiate(context.request);
  const parsed = startRunBodySchema.safeParse(await readJsonBody(context.request), { error: protocolErrorMap });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path as (string | number)[],
      message: issue.message,
    }));
    const message = issues.map((issue) => `${formatPath(issue.path) || '(body)'}: ${issue.message}`).join('; ');
    throw new RequestError(400, 'invalid_body', `Invalid start-run body: ${message}`, issues);
  }
  const { options, request } = context;
  const scenario = selectScenario(
    options.scenarios,
    options.defaultScenario,
    request.headers.get(SCENARIO_HEADER),
    parsed.data.input,
  );
  const run = context.registry.create(scenario, sessionId, { input: parsed.data.input, delayMs: context.delayMs });
  return serveConnection(context, run, run.latest.start, mode);
}

/**
 * `GET /v1/runs/{runId}/events`: the events after `Last-Event-ID`, to the end of that attempt. Without the
 * header the latest attempt plays from its start. A produced `drop` with `replayFrom` rewinds the next resume.
 */
export function resumeRun(context: RequestContext, runId: string): Promise<Response> {
  const run = context.registry.run(runId);
  const header = context.request.headers.get('last-event-id')?.trim();
  if (header === undefined || header === '') return serveConnection(context, run, run.latest.start, 'sse');
  if (!/^\d+$/.test(header))
    throw new RequestError(400, 'invalid_last_event_id', `Last-Event-ID must be a seq (an integer), got "${header}"`);
  let after = Number(header);
  if (run.pendingReplayFrom !== undefined) {
    after = Math.min(after, run.pendingReplayFrom - 1);
    run.pendingReplayFrom = undefined;
  }
  return serveConnection(context, run, run.cursorAfter(after), 'sse');
}

/** `POST /v1/runs/{runId}/cancel`: 202, then the run settles CANCELLED on its stream. */
export function cancelRun(context: RequestContext, runId: string): Response {
  const run = context.registry.run(runId);
  if (!run.cancel())
    throw new RequestError(409, 'run_settled', `Run "${runId}" has already settled; there is nothing to cancel.`);
  return jsonResponse(202, { runId, status: 'cancelling' });
}

/** `GET /v1/runs/{runId}/result`: the latest attempt's terminal event, 409 until it settles. */
export function runResult(context: RequestContext, runId: string): Response {
  const run = context.registry.run(runId);
  const terminal = run.terminal;
  if (terminal === undefined) throw new RequestError(409, 'run_not_settled', `Run "${runId}" has not settled yet.`);
  return jsonResponse(200, terminal);
}
