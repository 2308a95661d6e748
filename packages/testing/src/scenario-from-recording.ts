import {
  parseRunRecording,
  type InteractionAnswer,
  type RecordingEntry,
  type RunErrorKind,
  type RunRecording,
} from '@kestrel/core';
import type { WireEvent } from './event-factory.js';
import type { Scenario, ScenarioExpectation, ScenarioGroup, ScenarioStep } from './scenario.js';

/** Options of {@link scenarioFromRecording}. */
export interface ScenarioFromRecordingOptions {
  /**
   * `original` pauses before each event as long as the recorded run waited for it (a `pause` step); `fast` plays
   * every event at once (the mock's `eventDelayMs` still applies). Default `fast`.
   */
  readonly timing?: 'original' | 'fast';
  /** Default `recording-<runId>`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** What the replay starts the run with (a recording does not hold the input). Default `Replay of <runId>`. */
  readonly input?: string;
}

type Message = Extract<RecordingEntry, { type: 'message' }>;
type MutableDrop = { kind: 'drop'; replayFrom?: number };

/** One attempt as recorded: its steps so far, and what the client made of it. */
interface AttemptSteps {
  readonly steps: ScenarioStep[];
  answer: InteractionAnswer | undefined;
  maxSeq: number;
  terminal: WireEvent | undefined;
  errorKind: RunErrorKind | undefined;
  /** The drop just recorded, whose resume may show which seq the server replayed from. */
  drop: MutableDrop | undefined;
  /** When the last byte-carrying thing happened (a response or a message), for `original` timing. */
  lastT: number | undefined;
  heartbeatLost: boolean;
}

function newAttempt(): AttemptSteps {
  return {
    steps: [],
    answer: undefined,
    maxSeq: 0,
    terminal: undefined,
    errorKind: undefined,
    drop: undefined,
    lastT: undefined,
    heartbeatLost: false,
  };
}

function wireEvent(data: string): WireEvent | undefined {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { type, seq } = value as Record<string, unknown>;
    return typeof type === 'string' && typeof seq === 'number' && Number.isSafeInteger(seq)
      ? (value as WireEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The SSE block of a message, exactly as framed, for a message the mock's own encoding would not reproduce. */
function rawBlock(message: Message): string {
  let text = message.event === null ? '' : `event: ${message.event}\n`;
  if (message.id !== null) text += `id: ${message.id}\n`;
  for (const line of message.data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** An `event` step when the mock would send these very bytes, else a `raw` step of the recorded frame. */
function messageStep(message: Message, event: WireEvent | undefined): ScenarioStep {
  const exact =
    event !== undefined &&
    message.event === event.type &&
    message.id === String(event.seq) &&
    JSON.stringify(event) === message.data;
  return exact ? { kind: 'event', event } : { kind: 'raw', text: rawBlock(message) };
}

function expectation(attempt: AttemptSteps, recording: RunRecording, last: boolean): ScenarioExpectation {
  const final = recording.final;
  if (last && (final.phase === 'settled' || final.phase === 'error')) {
    return final.phase === 'error'
      ? { phase: 'error', ...(attempt.errorKind === undefined ? {} : { errorKind: attempt.errorKind }) }
      : { phase: 'settled', ...(final.status === null ? {} : { status: final.status }) };
  }
  const output = attempt.terminal?.output as { status?: ScenarioExpectation['status'] } | undefined;
  if (output?.status !== undefined) return { phase: 'settled', status: output.status };
  // A recording that stopped before the outcome replays as a stream that ends there: no outcome is made up.
  return { phase: 'error', errorKind: attempt.errorKind ?? 'truncated' };
}

function groupOf(attempts: readonly AttemptSteps[], expected: ScenarioExpectation): ScenarioGroup {
  if (attempts.some((attempt) => attempt.errorKind === 'protocol')) return 'protocol';
  if (attempts.some((attempt) => attempt.steps.some((step) => step.kind === 'drop' || step.kind === 'stall')))
    return 'transport';
  if (attempts.length > 1) return 'waiting';
  switch (expected.status) {
    case 'COMPLETED':
      return 'completed';
    case 'FAILED':
      return 'failed';
    case 'CANCELLED':
      return 'cancelled';
    case 'WAITING':
      return 'waiting';
    case undefined:
      return 'transport';
    default:
      return expected.status satisfies never;
  }
}

/**
 * Turns a recording (`recordRun`, or a `.kestrel-recording.json` file) into a scenario that the mock Kestrel,
 * `createScenarioFetch`, the tests and Storybook play like any shared one: the recorded SSE messages byte for byte,
 * a `drop` where the connection dropped (with `replayFrom` when the server replayed older events on resume), a
 * `stall` where the heartbeat was lost, an `end` where the stream ended without an outcome, and the answer sent
 * to a WAITING run as the scenario's continuation.
 *
 * Not replayed: failed requests and HTTP errors (steps cannot express them), and what came before a resume
 * after seq N (a recording of a reloaded page starts there).
 *
 * @example
 * const scenario = scenarioFromRecording(JSON.parse(text), { timing: 'original' });
 * const fetch = createScenarioFetch({ scenarios: [scenario], defaultScenario: scenario.name });
 * @throws {RecordingFormatError} when `recording` is not a version-1 recording, naming the field.
 * @throws {RangeError} when it holds more than one run, or more than one answer (a scenario has one continuation).
 */
export function scenarioFromRecording(recording: unknown, options: ScenarioFromRecordingOptions = {}): Scenario {
  const parsed = parseRunRecording(recording);
  const original = options.timing === 'original';
  const attempts: AttemptSteps[] = [];
  let current: AttemptSteps | undefined;
  let answer: InteractionAnswer | undefined;

  const push = (entry: RecordingEntry, step: ScenarioStep) => {
    const attempt = (current ??= newAttempt());
    if (original && attempt.lastT !== undefined && step.kind !== 'drop' && step.kind !== 'stall') {
      const ms = Math.round(entry.t - attempt.lastT);
      if (ms > 0) attempt.steps.push({ kind: 'pause', ms });
    }
    attempt.steps.push(step);
    attempt.lastT = entry.t;
  };

  for (const entry of parsed.entries) {
    switch (entry.type) {
      case 'attempt':
        if (entry.mode !== 'respond' && attempts.length > 0) {
          throw new RangeError(
            `scenarioFromRecording: the recording holds more than one run (a second "${entry.mode}" at ${entry.t} ms); record one run per file`,
          );
        }
        current = newAttempt();
        current.answer = entry.mode === 'respond' ? answer : undefined;
        attempts.push(current);
        break;
      case 'answer':
        answer = entry.answer;
        break;
      case 'response':
        if (current !== undefined) current.lastT = entry.t;
        break;
      case 'message': {
        const attempt = (current ??= newAttempt());
        if (!attempts.includes(attempt)) attempts.push(attempt);
        const event = wireEvent(entry.data);
        if (event !== undefined && event.seq <= attempt.maxSeq) {
          // The server replayed events the client had: the drop before says from where; they are not new steps.
          if (attempt.drop !== undefined && attempt.drop.replayFrom === undefined) attempt.drop.replayFrom = event.seq;
          attempt.lastT = entry.t;
          break;
        }
        attempt.drop = undefined;
        push(entry, messageStep(entry, event));
        if (event !== undefined) {
          attempt.maxSeq = event.seq;
          if (event.type === 'run.completed' && attempt.terminal === undefined) attempt.terminal = event;
        }
        break;
      }
      case 'heartbeat-lost':
        if (current !== undefined) current.heartbeatLost = true;
        break;
      case 'connection-closed': {
        const attempt = current;
        if (attempt === undefined) break;
        if (entry.outcome === 'lost') {
          if (attempt.heartbeatLost) push(entry, { kind: 'stall', ms: 60_000 });
          else {
            const drop: MutableDrop = { kind: 'drop' };
            push(entry, drop);
            attempt.drop = drop;
          }
          attempt.heartbeatLost = false;
        } else if (entry.outcome === 'ended' && attempt.terminal === undefined) push(entry, { kind: 'end' });
        break;
      }
      case 'result': {
        const event = entry.event === null ? undefined : wireEvent(JSON.stringify(entry.event));
        const attempt = current;
        if (attempt !== undefined && event !== undefined && event.seq > attempt.maxSeq) {
          push(entry, { kind: 'event', event });
          attempt.maxSeq = event.seq;
          attempt.terminal = event;
        }
        break;
      }
      case 'error':
        if (current !== undefined) current.errorKind = entry.error.kind;
        break;
      case 'request':
      case 'request-failed':
      case 'reconnect-wait':
      case 'resume':
        break;
      default:
        return entry satisfies never;
    }
  }

  if (attempts.length > 2) {
    throw new RangeError(
      `scenarioFromRecording: the recording answers ${attempts.length - 1} interactions; a scenario has one continuation`,
    );
  }
  const [first = newAttempt(), second] = attempts;
  const runId = parsed.runId ?? 'run_recorded';
  const expected = expectation(first, parsed, second === undefined);
  const continuation =
    second === undefined || second.answer === undefined
      ? undefined
      : { answer: second.answer, steps: second.steps, expected: expectation(second, parsed, true) };
  return {
    name: options.name ?? `recording-${runId}`,
    title: options.title ?? `Recorded run ${runId}`,
    description:
      options.description ??
      `A run recorded on ${parsed.startedAt}, replayed as the client saw it${parsed.truncated === null ? '' : ' (the recording was cut at its size bound)'}.`,
    group: groupOf(attempts, continuation?.expected ?? expected),
    input: options.input ?? `Replay of ${runId}`,
    runId,
    sessionId: parsed.sessionId ?? 'ses_recorded',
    steps: first.steps,
    expected,
    ...(continuation === undefined ? {} : { continuation }),
  };
}
