import { jsonResponse } from '@kestrel/core/internal';
import { RequestError } from './error-response.js';
import type { MockRun } from './mock-run.js';
import type { RequestContext } from './request-context.js';

/** The page size when the request gives none (docs/protocol.md#a-sessions-runs). */
export const DEFAULT_LIST_LIMIT = 20;
const CURSOR = /^before-(\d{1,9})$/;

/** The listing's view of one run. */
export function runSummary(run: MockRun) {
  const result = run.terminal;
  return {
    runId: run.runId,
    sessionId: run.sessionId,
    input: run.input,
    createdAt: run.createdAt,
    attempt: run.latest.attempt,
    live: run.live,
    ...(result === undefined ? {} : { result }),
    answers: run.answers,
  };
}

/**
 * `GET /v1/sessions/{sessionId}/runs?before&limit`: the `limit` runs right before the cursor (the newest ones
 * without it), oldest first within the page; `nextCursor` names the position before the page, or null at the start.
 * Cursors are opaque to clients; here they are `before-<index>`, and anything else is a 400.
 */
export function listRuns(
  context: RequestContext,
  sessionId: string,
  before: string | undefined,
  limit: number | undefined,
): Response {
  const runs = context.registry.session(sessionId);
  let end = runs.length;
  if (before !== undefined) {
    const index = CURSOR.exec(before)?.[1];
    if (index === undefined || Number(index) > runs.length)
      throw new RequestError(
        400,
        'invalid_cursor',
        `"before" is not a cursor this server gave out: "${before.slice(0, 40)}"`,
      );
    end = Number(index);
  }
  const start = Math.max(0, end - (limit ?? DEFAULT_LIST_LIMIT));
  return jsonResponse(200, {
    runs: runs.slice(start, end).map(runSummary),
    nextCursor: start > 0 ? `before-${start}` : null,
  });
}
