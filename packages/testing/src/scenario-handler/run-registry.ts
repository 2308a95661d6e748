import type { Scenario } from '../scenario.js';
import { RequestError } from './error-response.js';
import { ScenarioRun } from './scenario-run.js';

/** The fake server's memory: sessions and their runs. Ids are unique per handler: `${scenario.runId}_${n}`. */
export class RunRegistry {
  private serial = 0;
  private readonly runs = new Map<string, ScenarioRun>();
  private readonly sessions = new Map<string, ScenarioRun[]>();

  /** Starts a run of `scenario` in `sessionId` (`new` creates a session). */
  create(scenario: Scenario, sessionId: string, delayMs: number | undefined): ScenarioRun {
    if (sessionId !== 'new' && !this.sessions.has(sessionId)) {
      throw new RequestError(404, 'session_not_found', `Unknown session "${sessionId}". Use "new" to start a session.`);
    }
    const n = ++this.serial;
    const root = sessionId === 'new' ? `ses_${n}` : sessionId;
    const run = new ScenarioRun(scenario, { runId: `${scenario.runId}_${n}`, sessionId: root, suffix: String(n) }, delayMs);
    this.runs.set(run.runId, run);
    this.sessions.set(root, [...(this.sessions.get(root) ?? []), run]);
    return run;
  }

  run(runId: string): ScenarioRun {
    const run = this.runs.get(runId);
    if (run === undefined) throw new RequestError(404, 'run_not_found', `Unknown run "${runId}".`);
    return run;
  }

  session(sessionId: string): readonly ScenarioRun[] {
    const runs = this.sessions.get(sessionId);
    if (runs === undefined) throw new RequestError(404, 'session_not_found', `Unknown session "${sessionId}".`);
    return runs;
  }
}
