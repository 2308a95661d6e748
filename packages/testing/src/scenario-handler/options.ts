import type { Scenario } from '../scenario.js';

/** Options of `createScenarioHandler`, `createScenarioFetch` and `createMockKestrel`; all optional. */
export interface ScenarioHandlerOptions {
  /** The scenarios a run can play. Defaults to the shared set from `@kestrel/testing`. */
  readonly scenarios?: readonly Scenario[];
  /** Played when the request names no scenario. Default `completed-text`. */
  readonly defaultScenario?: string;
  /** Interval of `: keep-alive` comments while a stream is live. Default 15 000 ms (docs/protocol.md#heartbeat). */
  readonly keepAliveMs?: number;
  /** Pause before each newly produced event, for realistic pacing (the demo uses about 30 ms). Default 0. */
  readonly eventDelayMs?: number;
  /** Replaces the duration of every scenario `stall` step (tests use a few ms instead of a minute). */
  readonly stallMs?: number;
  /**
   * Whether `GET /v1/sessions/{id}/runs` lists a session's runs (default true). `false` answers 501, as a server
   * without the optional listing does (docs/protocol.md#a-sessions-runs).
   */
  readonly listing?: boolean;
  /** Sessions that exist from the start, each with a history of settled runs (long threads, the benchmark). */
  readonly seed?: readonly SessionSeed[];
}

/** A session the handler starts with: `runs` settled runs, oldest first, one minute apart, ending now. */
export interface SessionSeed {
  readonly sessionId: string;
  /** How many settled runs (0 to 100 000). */
  readonly runs: number;
  /** The scenario each run played, in turn; default `['completed-text']`. Each must settle without an answer. */
  readonly scenarios?: readonly string[];
}

/** A web-standard handler playing the scenarios as a fake Kestrel, plus housekeeping. */
export interface ScenarioHandler {
  (request: Request): Promise<Response>;
  /** Ends every open stream cleanly; the handler keeps answering new requests. */
  close(): void;
  /** How many event streams are open right now. */
  readonly openStreams: number;
}

export interface ResolvedHandlerOptions {
  readonly scenarios: readonly Scenario[];
  readonly defaultScenario: string;
  readonly keepAliveMs: number;
  readonly eventDelayMs: number;
  readonly stallMs: number | undefined;
  readonly listing: boolean;
}
