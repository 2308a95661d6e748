import type { InteractionAnswer } from '@kestrel/core';
import type { WireEvent } from '../event-factory.js';
import type { Scenario, ScenarioStep } from '../scenario.js';
import { rewriteSteps, stepSeq, type RunIds } from './rewrite-steps.js';
import type { WakeSource } from './sleep.js';

/** One attempt's stretch of the run's steps: `[start, end)`. A stream never crosses into the next attempt. */
export interface Segment {
  readonly start: number;
  end: number;
  readonly attempt: number;
  /** The attempt's `run.completed`, once produced. */
  terminal: WireEvent | undefined;
}

const CANCELLATION = { reason: 'Cancelled by the user', by: 'user' } as const;

function eventOf(step: ScenarioStep | undefined): WireEvent | undefined {
  return step?.kind === 'event' ? step.event : undefined;
}

/**
 * One run on the fake server: every attempt's steps in one list, and `head`, how far the run has got. Streams
 * replay what lies before `head` and produce what lies at it, so a fault fires once (on the connection that
 * reaches it) and a resumed connection continues past it.
 */
export class MockRun {
  readonly steps: ScenarioStep[] = [];
  readonly segments: Segment[] = [];
  /** Index of the next step to produce. */
  head = 0;
  /** Set when a produced `drop` asks the next resume to replay from an earlier seq. */
  pendingReplayFrom: number | undefined;
  readonly answered = new Set<string>();
  /** The answers given in this run, in order, as the session listing reports them. */
  readonly answers: { readonly interactionId: string; readonly attempt: number; readonly answer: InteractionAnswer }[] =
    [];
  /** When the run was started (ISO time). */
  readonly createdAt: string;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly scenario: Scenario,
    readonly ids: RunIds,
    readonly delayMs: number | undefined,
    /** What the person sent. */
    readonly input: string = scenario.input,
    createdAt: Date = new Date(),
  ) {
    this.createdAt = createdAt.toISOString();
    this.appendAttempt(scenario.steps);
  }

  /**
   * Still going on the server: its latest attempt has not settled and has steps left to play (a truncated stream
   * that will never settle is not live). A WAITING run is settled, so not live.
   */
  get live(): boolean {
    return this.latest.terminal === undefined && this.head < this.latest.end;
  }

  /** Plays every step at once, as if a client had streamed the run to its end (seeded history). */
  playToEnd(): void {
    while (this.head < this.steps.length) this.produce();
  }

  get runId(): string {
    return this.ids.runId;
  }

  get sessionId(): string {
    return this.ids.sessionId;
  }

  get latest(): Segment {
    const segment = this.segments.at(-1);
    if (segment === undefined) throw new Error('a run always has an attempt');
    return segment;
  }

  /** The latest attempt's terminal event, once it settled. */
  get terminal(): WireEvent | undefined {
    return this.latest.terminal;
  }

  /** Adds the next attempt's steps, with seqs continuing after the run's last one. */
  appendAttempt(steps: readonly ScenarioStep[]): Segment {
    const firstSeq = steps.map(stepSeq).find((seq) => seq !== undefined) ?? 1;
    const offset = this.segments.length === 0 ? 0 : this.maxSeq(this.steps.length) + 1 - firstSeq;
    const rewritten = rewriteSteps(steps, this.scenario, this.ids, offset);
    const started = rewritten.map(eventOf).find((event) => event?.type === 'run.started');
    const attempt = typeof started?.attempt === 'number' ? started.attempt : this.segments.length + 1;
    // Steps a settled attempt never got to play (a client that left early) stay unplayed: the next attempt starts here.
    if (this.segments.length > 0) this.head = this.steps.length;
    const segment: Segment = {
      start: this.steps.length,
      end: this.steps.length + rewritten.length,
      attempt,
      terminal: undefined,
    };
    this.steps.push(...rewritten);
    this.segments.push(segment);
    return segment;
  }

  /** The attempt a cursor belongs to (the last one when the cursor is past every step). */
  segmentAt(cursor: number): Segment {
    return this.segments.find((segment) => cursor >= segment.start && cursor < segment.end) ?? this.latest;
  }

  /** Marks the step at `head` produced and returns it. */
  produce(): ScenarioStep {
    const step = this.steps[this.head];
    if (step === undefined) throw new Error(`nothing to produce at ${this.head}`);
    const segment = this.segmentAt(this.head);
    this.head += 1;
    if (step.kind === 'event' && step.event.type === 'run.completed' && segment.terminal === undefined) {
      segment.terminal = step.event;
    }
    if (step.kind === 'drop' && step.replayFrom !== undefined) this.pendingReplayFrom = step.replayFrom;
    return step;
  }

  /** The largest seq among the first `count` steps (0 when none). */
  maxSeq(count = this.head): number {
    let max = 0;
    for (const step of this.steps.slice(0, count)) max = Math.max(max, stepSeq(step) ?? 0);
    return max;
  }

  /** The index right after the last step whose seq is at most `seq`, never past what was produced. */
  cursorAfter(seq: number): number {
    let cursor = 0;
    this.steps.forEach((step, index) => {
      const stepSeqValue = stepSeq(step);
      if (stepSeqValue !== undefined && stepSeqValue <= seq) cursor = index + 1;
    });
    return Math.min(cursor, this.head);
  }

  /**
   * Replaces what the latest attempt has not produced yet with a cancelled ending: `turn/end` cancelled,
   * `agent.idle`, then `run.completed` CANCELLED, seqs continuing. Returns false when the attempt already settled.
   */
  cancel(): boolean {
    const segment = this.latest;
    if (segment.terminal !== undefined) return false;
    let at = Math.max(this.head, segment.start);
    // Keep the attempt's opening so the cancelled interval still starts with run.started and message.received.
    const received = this.steps.findIndex(
      (step, index) => index >= segment.start && index < segment.end && eventOf(step)?.type === 'message.received',
    );
    if (received >= at) at = received + 1;
    let seq = this.maxSeq(at);
    const text = this.steps
      .slice(segment.start, at)
      .map(eventOf)
      .filter((event) => event?.type === 'text.delta' && event.sessionId === this.sessionId)
      .map((event) => String(event?.delta ?? ''))
      .join('')
      .trimEnd();
    const envelope = () => ({ runId: this.runId, seq: ++seq, sessionId: this.sessionId });
    const ending: ScenarioStep[] = [
      { kind: 'event', event: { type: 'turn/end', ...envelope(), reason: { kind: 'cancelled' } } },
      { kind: 'event', event: { type: 'agent.idle', ...envelope() } },
      {
        kind: 'event',
        event: {
          type: 'run.completed',
          ...envelope(),
          attempt: segment.attempt,
          output: { status: 'CANCELLED', cancellation: CANCELLATION, assistantText: text === '' ? null : text },
        },
      },
    ];
    this.steps.splice(at, segment.end - at, ...ending);
    segment.end = at + ending.length;
    this.notify();
    return true;
  }

  /** Wakes streams that are pacing or stalled when the run changes under them (a cancel). */
  readonly onChange: WakeSource = (listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
