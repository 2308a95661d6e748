import { ProtocolError, parseRunEvent, parseSSEMessage, type RunAction } from '@kestrel/core';
import { protocolErrorAction } from '@kestrel/core/internal';
import type { ScenarioStep } from './scenario.js';

/** Splits one raw SSE block (`event:`/`id:`/`data:` lines) into a message, enough for scenario fixtures. */
function rawToMessage(text: string) {
  const lines = text.split('\n');
  const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
  return {
    event: field('event'),
    id: field('id'),
    data: lines
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n'),
  };
}

/**
 * The actions a careful client feeds `reduceRun` while it plays these steps: it resumes after every drop or
 * stall (receiving replayed duplicates where the scenario has them), stops at the first protocol error, and
 * reports a clean end without `run.completed` as the end of the stream.
 */
export function scenarioActions(steps: readonly ScenarioStep[]): RunAction[] {
  const actions: RunAction[] = [{ type: 'client/start-requested', mode: 'start' }, { type: 'client/connected' }];
  const played: ScenarioStep[] = [];
  let reconnects = 0;
  const feed = (step: ScenarioStep): boolean => {
    try {
      if (step.kind === 'event') actions.push(parseRunEvent(step.event));
      if (step.kind === 'raw') actions.push(parseSSEMessage(rawToMessage(step.text)));
      return true;
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      actions.push(protocolErrorAction(error));
      return false;
    }
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'event':
      case 'raw':
        played.push(step);
        if (!feed(step)) return actions;
        break;
      case 'drop':
      case 'stall': {
        reconnects += 1;
        actions.push({
          type: 'client/reconnecting',
          attempt: reconnects,
          delayMs: 0,
          reason: step.kind === 'drop' ? 'connection dropped' : 'heartbeat timeout',
        });
        actions.push({ type: 'client/connected' });
        if (step.kind === 'drop' && step.replayFrom !== undefined) {
          const from = step.replayFrom;
          for (const replayed of played) {
            if (replayed.kind === 'event' && replayed.event.seq >= from && !feed(replayed)) return actions;
          }
        }
        break;
      }
      case 'end':
        actions.push({ type: 'client/stream-ended' });
        return actions;
      case 'pause':
        break;
      default:
        return step satisfies never;
    }
  }
  const last = actions.at(-1);
  if (last === undefined || last.type !== 'run.completed') actions.push({ type: 'client/stream-ended' });
  return actions;
}
