import type { Scenario } from '../scenario.js';
import { RequestError } from './error-response.js';
import { MockRun } from './mock-run.js';

/** What starting a run records besides its scenario. */
export interface NewRun {
  readonly input?: string;
  readonly delayMs?: number | undefined;
  readonly createdAt?: Date;
}

/** The fake server's memory: sessions and their runs. Ids are unique per handler: `${scenario.runId}_${n}`. */
export class RunRegistry {
  private serial = 0;
  private readonly runs = new Map<string, MockRun>();
  private readonly sessions = new Map<string, MockRun[]>();
  /** Scenario and input of every start of a scenario with a `retry`: a second start with both plays the retry. */
  private readonly played = new Set<string>();

  /**
   * Starts a run of `scenario` in `sessionId` (`new` creates a session). A session has at most one live run: a
   * second start while one is live is a 409 `run_in_progress` (docs/protocol.md#sessions). A scenario with a
   * `retry` plays it when started again with the same input, in any session (an app's retry starts a new run).
   */
  create(scenario: Scenario, sessionId: string, run: NewRun = {}): MockRun {
    if (sessionId !== 'new') {
      const live = this.session(sessionId).find((candidate) => candidate.live);
      if (live !== undefined) {
        throw new RequestError(
          409,
          'run_in_progress',
          `Session "${sessionId}" already has a live run ("${live.runId}"); wait for it to settle or cancel it.`,
        );
      }
    }
    return this.add(this.attemptOf(scenario, run.input ?? scenario.input), sessionId, run);
  }

  /** The scenario as this start plays it: itself the first time an input starts it, its `retry` every time after. */
  private attemptOf(scenario: Scenario, input: string): Scenario {
    if (scenario.retry === undefined) return scenario;
    const key = JSON.stringify([scenario.name, input]);
    if (!this.played.has(key)) {
      this.played.add(key);
      return scenario;
    }
    return { ...scenario, steps: scenario.retry.steps, expected: scenario.retry.expected };
  }

  /** Adds a run without the live-run check (seeding a session's history). */
  add(scenario: Scenario, sessionId: string, run: NewRun = {}): MockRun {
    const n = ++this.serial;
    const root = sessionId === 'new' ? `ses_${n}` : sessionId;
    const created = new MockRun(
      scenario,
      { runId: `${scenario.runId}_${n}`, sessionId: root, suffix: String(n) },
      run.delayMs,
      run.input ?? scenario.input,
      run.createdAt,
    );
    this.runs.set(created.runId, created);
    const list = this.sessions.get(root);
    if (list === undefined) this.sessions.set(root, [created]);
    else list.push(created);
    return created;
  }

  run(runId: string): MockRun {
    const run = this.runs.get(runId);
    if (run === undefined) throw new RequestError(404, 'run_not_found', `Unknown run "${runId}".`);
    return run;
  }

  /** The session's runs, oldest first. */
  session(sessionId: string): readonly MockRun[] {
    const runs = this.sessions.get(sessionId);
    if (runs === undefined) throw new RequestError(404, 'session_not_found', `Unknown session "${sessionId}".`);
    return runs;
  }
}
