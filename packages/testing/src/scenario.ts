import type { InteractionAnswer, RunErrorKind, RunOutputStatus, RunPhase } from '@kestrel/core';
import type { WireEvent } from './event-factory.js';

/**
 * One thing the server does, in order. Events are wire JSON; faults describe what the connection does.
 */
export type ScenarioStep =
  | { readonly kind: 'event'; readonly event: WireEvent }
  /** Bytes written verbatim, for framing the schemas cannot express (a name that disagrees with data.type, bad JSON). */
  | { readonly kind: 'raw'; readonly text: string }
  /**
   * The connection drops here. A client that resumes with Last-Event-ID gets the rest; with `replayFrom` the
   * server (wrongly, but as real ones do) replays from that seq, so the client must drop duplicates.
   */
  | { readonly kind: 'drop'; readonly replayFrom?: number }
  /** The server ends the response cleanly here, and nothing more will ever come: a truncated stream. */
  | { readonly kind: 'end' }
  /** The server goes silent, no keep-alives, for `ms`; a client resumes after its heartbeat timeout. */
  | { readonly kind: 'stall'; readonly ms: number }
  /**
   * The server waits `ms` before the next step, keep-alives going: the original timing of a recorded run
   * (`scenarioFromRecording`). Not a fault: a client sees a slow server, nothing else.
   */
  | { readonly kind: 'pause'; readonly ms: number };

/** What a careful client shows once it has done everything it can (resumed after drops, stopped on errors). */
export interface ScenarioExpectation {
  readonly phase: Extract<RunPhase, 'settled' | 'error'>;
  readonly status?: RunOutputStatus;
  readonly errorKind?: RunErrorKind;
  readonly finishReason?: string | null;
  readonly payload?: 'absent' | 'valid' | 'invalid';
  readonly assistantText?: string | null;
  /** Text deltas of the last attempt, joined. */
  readonly draftText?: string;
  /** Number of events kept in `state.events`. */
  readonly eventCount?: number;
}

/** The attempt that follows an answer to a WAITING interaction. */
export interface ScenarioContinuation {
  readonly answer: InteractionAnswer;
  readonly steps: readonly ScenarioStep[];
  readonly expected: ScenarioExpectation;
}

/**
 * What a later start of the same scenario with the same input plays: the mock Kestrel remembers that the input
 * was played once, so an app's retry of a retryable FAILED run can be tested to succeed.
 */
export interface ScenarioRetry {
  readonly steps: readonly ScenarioStep[];
  readonly expected: ScenarioExpectation;
}

/** The outcome family a scenario belongs to: the demo lists scenarios by it; `protocol` ones send invalid input on purpose. */
export type ScenarioGroup = 'completed' | 'failed' | 'cancelled' | 'waiting' | 'activity' | 'transport' | 'protocol';

/**
 * One described run state, shared by core tests, React tests, stories, the mock server and the demo: wire steps
 * plus what a client should end up showing. Find one with `getScenario(name)`.
 */
export interface Scenario {
  readonly name: string;
  readonly title: string;
  /** One sentence a person browsing Storybook or the demo reads. */
  readonly description: string;
  readonly group: ScenarioGroup;
  readonly input: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly steps: readonly ScenarioStep[];
  readonly expected: ScenarioExpectation;
  /** Present on WAITING scenarios whose interaction can be answered. */
  readonly continuation?: ScenarioContinuation;
  /** What starting it again with the same input plays (a retry), instead of `steps`; see {@link ScenarioRetry}. */
  readonly retry?: ScenarioRetry;
  /** An answer the interaction must refuse (for validation and server rejection tests). */
  readonly invalidAnswer?: unknown;
  /** The payload schema the app uses for this scenario's structured output. */
  readonly usesInvoiceSchema?: boolean;
}

/** The events of a step list, in order, without faults. */
export function scenarioEvents(steps: readonly ScenarioStep[]): WireEvent[] {
  return steps.flatMap((step) => (step.kind === 'event' ? [step.event] : []));
}

/** Wraps one wire event as a scenario step, e.g. `ev(f.text('Hi'))`. */
export const ev = (event: WireEvent): ScenarioStep => ({ kind: 'event', event });
/** Wraps wire events (or arrays of them) as scenario steps, in order, e.g. `evs(f.started(), f.text('Hi'), f.completed(output))`. */
export const evs = (...events: (WireEvent | readonly WireEvent[])[]): ScenarioStep[] =>
  events.flat().map((event) => ({ kind: 'event', event }));
