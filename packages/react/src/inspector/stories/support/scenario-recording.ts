import {
  createInitialRunState,
  parseRunRecording,
  parseSSEMessage,
  ProtocolError,
  reduceRun,
  type RecordingEntry,
  type RunAction,
  type RunRecording,
  type RunState,
} from '@kestrel/core';
import { protocolErrorAction } from '@kestrel/core/internal';
import type { Scenario, ScenarioStep } from '@kestrel/testing';

/** One raw SSE block (`event:`/`id:`/`data:` lines) as the decoder frames it. */
function frame(text: string) {
  const lines = text.split('\n');
  const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
  const data = lines
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .join('\n');
  return { event: field('event'), id: field('id'), data };
}

/**
 * A recording of a shared scenario as the run client makes one (requests, responses, every message with its time,
 * drops, heartbeat losses, reconnect waits, resumes, the error it ended in), without a network: for the inspector's
 * stories and tests, each step `stepMs` after the last. Checked against the recording schema.
 */
export function scenarioRecording(scenario: Scenario, options: { stepMs?: number } = {}): RunRecording {
  const stepMs = options.stepMs ?? 40;
  const entries: RecordingEntry[] = [];
  let t = 0;
  let state: RunState = createInitialRunState();
  const apply = (action: RunAction) => {
    state = reduceRun(state, action);
  };
  const base = `/v1/sessions/${scenario.sessionId}/runs`;
  entries.push({ t, type: 'attempt', mode: 'start', runId: null, lastSeq: 0 });
  apply({ type: 'client/start-requested', mode: 'start' });
  entries.push({ t, type: 'request', method: 'POST', path: base, lastEventId: null });
  t += stepMs;
  entries.push({ t, type: 'response', method: 'POST', path: base, status: 200 });
  apply({ type: 'client/connected' });

  const played: ScenarioStep[] = [];
  let reconnects = 0;
  const message = (step: Extract<ScenarioStep, { kind: 'event' | 'raw' }>): boolean => {
    t += stepMs;
    const framed =
      step.kind === 'raw'
        ? frame(step.text)
        : { event: step.event.type, id: String(step.event.seq), data: JSON.stringify(step.event) };
    entries.push({ t, type: 'message', ...framed });
    try {
      apply(parseSSEMessage({ event: framed.event ?? undefined, id: framed.id ?? undefined, data: framed.data }));
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      apply(protocolErrorAction(error));
    }
    return state.phase !== 'error';
  };
  const resume = (reason: string, replayFrom: number | undefined): boolean => {
    reconnects += 1;
    entries.push({ t, type: 'connection-closed', outcome: 'lost', reason });
    entries.push({ t, type: 'reconnect-wait', attempt: reconnects, delayMs: 0, reason });
    apply({ type: 'client/reconnecting', attempt: reconnects, delayMs: 0, reason });
    const path = `/v1/runs/${scenario.runId}/events`;
    entries.push({ t, type: 'request', method: 'GET', path, lastEventId: state.lastSeq });
    t += stepMs;
    entries.push({ t, type: 'response', method: 'GET', path, status: 200 });
    apply({ type: 'client/connected' });
    entries.push({ t, type: 'resume', afterSeq: state.lastSeq });
    if (replayFrom === undefined) return true;
    return played.every((step) => step.kind !== 'event' || step.event.seq < replayFrom || message(step));
  };

  let going = true;
  for (const step of scenario.steps) {
    if (!going) break;
    switch (step.kind) {
      case 'event':
      case 'raw':
        played.push(step);
        going = message(step);
        break;
      case 'drop':
        going = resume('connection dropped', step.replayFrom);
        break;
      case 'stall':
        t += step.ms;
        entries.push({ t, type: 'heartbeat-lost', timeoutMs: step.ms });
        going = resume('heartbeat timeout', undefined);
        break;
      case 'end':
        going = false;
        break;
      case 'pause':
        t += step.ms;
        break;
      default:
        return step satisfies never;
    }
  }
  if (state.phase !== 'error' && state.phase !== 'settled') apply({ type: 'client/stream-ended' });
  if (state.phase === 'settled') entries.push({ t, type: 'connection-closed', outcome: 'ended', reason: null });
  if (state.error !== null) {
    entries.push({ t, type: 'connection-closed', outcome: 'ended', reason: null });
    // The stored form of a RunError: the same fields, the issue path as a plain array.
    const error = state.error.kind === 'protocol' ? { ...state.error, path: [...state.error.path] } : state.error;
    entries.push({ t, type: 'error', error });
  }
  return parseRunRecording({
    version: 1,
    format: 'kestrel-recording',
    startedAt: '2026-12-01T12:00:00.000Z',
    runId: state.runId,
    sessionId: state.sessionId,
    final: { phase: state.phase, status: state.status, lastSeq: state.lastSeq, eventCount: state.events.length },
    truncated: null,
    redactions: [],
    entries,
  });
}
