import type { WireEvent } from '../event-factory.js';
import type { Scenario, ScenarioStep } from '../scenario.js';

/** How a scenario's ids map onto one run of it. */
export interface RunIds {
  readonly runId: string;
  readonly sessionId: string;
  /** Appended to subagent session ids so two runs never share one. */
  readonly suffix: string;
}

function rewriteEvent(event: WireEvent, scenario: Scenario, ids: RunIds, seqOffset: number): WireEvent {
  const out: Record<string, unknown> = { ...event, seq: event.seq + seqOffset };
  if (event.runId === scenario.runId) out.runId = ids.runId;
  if (typeof event.sessionId === 'string') {
    out.sessionId = event.sessionId === scenario.sessionId ? ids.sessionId : `${event.sessionId}_${ids.suffix}`;
  }
  return out as WireEvent;
}

const quoted = (text: string) => JSON.stringify(text);

/**
 * A scenario's steps with this run's ids (and seqs moved by `seqOffset`). Raw steps are rewritten textually,
 * which is enough for the JSON they carry; their framing is left exactly as written.
 */
export function rewriteSteps(
  steps: readonly ScenarioStep[],
  scenario: Scenario,
  ids: RunIds,
  seqOffset = 0,
): ScenarioStep[] {
  return steps.map((step): ScenarioStep => {
    switch (step.kind) {
      case 'event':
        return { kind: 'event', event: rewriteEvent(step.event, scenario, ids, seqOffset) };
      case 'raw':
        return {
          kind: 'raw',
          text: step.text
            .replaceAll(quoted(scenario.runId), quoted(ids.runId))
            .replaceAll(quoted(scenario.sessionId), quoted(ids.sessionId)),
        };
      case 'drop':
        return step.replayFrom === undefined ? step : { kind: 'drop', replayFrom: step.replayFrom + seqOffset };
      case 'end':
      case 'stall':
      case 'pause':
        return step;
      default:
        return step satisfies never;
    }
  });
}

/** The seq a step carries: an event's, or the `id:` line of a raw block. */
export function stepSeq(step: ScenarioStep): number | undefined {
  if (step.kind === 'event') return step.event.seq;
  if (step.kind === 'raw') {
    const id = /^id:\s*(\d+)\s*$/m.exec(step.text);
    return id === null ? undefined : Number(id[1]);
  }
  return undefined;
}
