import type { Scenario } from '../scenario.js';
import { RequestError } from './error-response.js';
import { MockRun } from './mock-run.js';

/** The fake server's memory: sessions and their runs. Ids are unique per handler: `${scenario.runId}_${n}`. */
export class RunRegistry {
  private serial = 0;
  private readonly runs = new Map<string, MockRun>();
  private readonly sessions = new Map<string, MockRun[]>();

  /** Starts a run of `scenario` in `sessionId` (`new` creates a session). */
  create(scenario: Scenario, sessionId: string, delayMs: number | undefined): MockRun {
    if (sessionId !== 'new' && !this.sessions.has(sessionId)) {
      throw new RequestError(404, 'session_not_found', `Unknown session "${sessionId}". Use "new" to start a session.`);
    }
    const n = ++this.serial;
    const root = sessionId === 'new' ? `ses_${n}` : sessionId;
    const run = new MockRun(scenario, { runId: `${scenario.runId}_${n}`, sessionId: root, suffix: String(n) }, delayMs);
    this.runs.set(run.runId, run);
    this.sessions.set(root, [...(this.sessions.get(root) ?? []), run]);
    return run;
  }

  run(runId: string): MockRun {
    const run = this.runs.get(runId);
    if (run === undefined) throw new RequestError(404, 'run_not_found', `Unknown run "${runId}".`);
    return run;
  }

  session(sessionId: string): readonly MockRun[] {
    const runs = this.sessions.get(sessionId);
    if (runs === undefined) throw new RequestError(404, 'session_not_found', `Unknown session "${sessionId}".`);
    return runs;
  }
}
