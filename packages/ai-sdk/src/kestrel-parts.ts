import type { RunCompletedEvent, RunError, RunState } from '@kestrel/core';
import type { FinishReason } from 'ai';
import type { KestrelDataTypes, KestrelStatusData } from './data-part-schemas.js';

/*
 * The pieces both the pure mapping and the streaming transport build, so a message assembled from chunks and a
 * message mapped from the final state cannot drift apart.
 */

/** A `data-kestrel-*` part (or chunk: the shapes are the same). Each has a fixed id, so a later one replaces it. */
export type KestrelDataPart<P = unknown> = {
  [K in keyof KestrelDataTypes<P>]: { type: `data-${K}`; id: K; data: KestrelDataTypes<P>[K] };
}[keyof KestrelDataTypes<P>];

/** The id of the message a run attempt becomes: stable, so a replay or a reload lands on the same message. */
export function kestrelMessageId(runId: string | null, attempt: number | null): string {
  if (runId === null) return 'kestrel-run';
  return attempt === null ? `kestrel-${runId}` : `kestrel-${runId}-${attempt}`;
}

export function statusPart(state: RunState<unknown>): KestrelDataPart {
  const data: KestrelStatusData = {
    runId: state.runId ?? state.result?.runId ?? null,
    sessionId: state.sessionId ?? state.result?.sessionId ?? null,
    attempt: state.attempt,
    phase: state.phase,
    status: state.status,
    lastSeq: state.lastSeq,
  };
  return { type: 'data-kestrel-status', id: 'kestrel-status', data };
}

export function clientErrorPart(error: RunError): KestrelDataPart {
  return { type: 'data-kestrel-error', id: 'kestrel-error', data: { source: 'client', error } };
}

/** The data parts of a settled outcome, in message order: finish reason, then what the output status carries. */
export function outcomeParts<P>(result: RunCompletedEvent, state: Pick<RunState<P>, 'finishReason' | 'payload' | 'sessionId'>): KestrelDataPart<P>[] {
  // An unknown finish reason (the run read from its result alone) is left out rather than sent as null.
  const parts: KestrelDataPart<P>[] =
    state.finishReason === undefined ? [] : [{ type: 'data-kestrel-finish', id: 'kestrel-finish', data: { finishReason: state.finishReason } }];
  const output = result.output;
  switch (output.status) {
    case 'COMPLETED': {
      const payload = state.payload;
      if (payload?.status === 'valid') parts.push({ type: 'data-kestrel-payload', id: 'kestrel-payload', data: { status: 'valid', value: payload.value } });
      if (payload?.status === 'invalid') {
        parts.push({ type: 'data-kestrel-payload', id: 'kestrel-payload', data: { status: 'invalid', raw: payload.raw, issues: payload.issues } });
      }
      break;
    }
    case 'FAILED':
      parts.push({ type: 'data-kestrel-error', id: 'kestrel-error', data: { source: 'output', error: output.error } });
      break;
    case 'CANCELLED':
      parts.push({ type: 'data-kestrel-cancellation', id: 'kestrel-cancellation', data: output.cancellation });
      break;
    case 'WAITING':
      parts.push({
        type: 'data-kestrel-interaction',
        id: 'kestrel-interaction',
        data: { runId: result.runId, sessionId: state.sessionId ?? result.sessionId, seq: result.seq, interaction: output.interaction },
      });
      break;
    default:
      return output satisfies never;
  }
  return parts;
}

/** The settled assistant text, or `null` when the output has none to show. */
export function finalText(result: RunCompletedEvent): string | null {
  const text = result.output.assistantText;
  return typeof text === 'string' && text !== '' ? text : null;
}

/** Marks a streamed draft that the settled assistant text replaced (the final text follows as its own part). */
export const SUPERSEDED_DRAFT = { kestrel: { draft: 'superseded' } } as const;

/** True for a text part holding streamed draft text that the run's final assistant text replaced. */
export function isSupersededDraft(part: { type: string; providerMetadata?: unknown }): boolean {
  if (part.type !== 'text') return false;
  const kestrel = (part.providerMetadata as { kestrel?: { draft?: unknown } } | undefined)?.kestrel;
  return kestrel?.draft === 'superseded';
}

/** Kestrel's `turn/end` kinds, in AI SDK terms. Kinds the AI SDK has no word for become `other`. */
export function toAIFinishReason(finishReason: string | null | undefined): FinishReason | undefined {
  switch (finishReason) {
    case null:
    case undefined:
      return undefined;
    case 'completed':
      return 'stop';
    case 'max-tokens':
      return 'length';
    case 'tool-calls':
      return 'tool-calls';
    case 'error':
      return 'error';
    case 'content-filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Tool output in the one shape the AI SDK's error state takes: text. JSON is kept whole. */
export function toolErrorText(output: unknown): string {
  if (typeof output === 'string') return output;
  return output === undefined ? 'The tool reported an error' : JSON.stringify(output);
}
