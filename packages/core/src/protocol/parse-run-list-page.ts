import { MAX_CURSOR_LENGTH } from './kestrel-routes.js';
import { ProtocolError, toProtocolIssues, type IssuePath } from './protocol-error.js';
import { protocolParseOptions } from './protocol-error-map.js';
import { runListPageSchema } from './listing-schemas.js';
import type { RunListPage } from './types.js';

function broken(reason: string, path: IssuePath, raw: unknown): ProtocolError {
  return new ProtocolError(reason, { path, issues: [{ path, message: reason }], raw });
}

/**
 * Validates one page of a session listing (docs/protocol.md#a-sessions-runs) for `sessionId`: the shape, each
 * `result` as a terminal event of that run, each answer as an interaction answer, and a `nextCursor` that can be
 * sent back (at most {@link MAX_CURSOR_LENGTH} characters).
 *
 * @throws {ProtocolError} naming the field (e.g. `runs[3].result.output.assistantText`) when the page breaks the protocol.
 */
export function parseRunListPage(value: unknown, sessionId: string): RunListPage {
  const parsed = runListPageSchema.safeParse(value, protocolParseOptions);
  if (!parsed.success) {
    const issues = toProtocolIssues(parsed.error.issues);
    throw new ProtocolError(issues[0]?.message ?? 'invalid session listing', { issues, raw: value });
  }
  const page = parsed.data;
  for (const [index, run] of page.runs.entries()) {
    // A run of another session, or a result of another run, would be shown in the wrong conversation.
    if (run.sessionId !== sessionId)
      throw broken(
        `expected a run of session "${sessionId}", got "${run.sessionId}"`,
        ['runs', index, 'sessionId'],
        value,
      );
    if (run.result !== undefined && run.result.runId !== run.runId)
      throw broken(
        `expected the result of run "${run.runId}", got "${run.result.runId}"`,
        ['runs', index, 'result', 'runId'],
        value,
      );
  }
  if (page.nextCursor !== null && page.nextCursor.length > MAX_CURSOR_LENGTH)
    throw broken(
      `expected a cursor of at most ${MAX_CURSOR_LENGTH} characters, got ${page.nextCursor.length}`,
      ['nextCursor'],
      value,
    );
  return page;
}
