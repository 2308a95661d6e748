import type { RunCompletedEvent, RunError, RunState } from '@kestrel/core';
import type { KestrelDataTypes, KestrelDraftData, KestrelStatusData } from './data-part-schemas.js';

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

/**
 * The `data-kestrel-draft` part of a state, or `null` when no text streamed in this attempt. The draft stays motion
 * whatever happens: once the run has an outcome it is withdrawn (no text), and only the output's text is a `text` part.
 */
export function draftPart(state: Pick<RunState<unknown>, 'phase' | 'result' | 'draftText'>): KestrelDataPart | null {
  if (state.draftText === '') return null;
  return { type: 'data-kestrel-draft', id: 'kestrel-draft', data: draftData(state) };
}

function draftData(state: Pick<RunState<unknown>, 'phase' | 'result' | 'draftText'>): KestrelDraftData {
  // An outcome withdraws the draft, even when a protocol error followed it.
  if (state.result !== null) return { state: 'settled' };
  switch (state.phase) {
    case 'error':
      return { state: 'interrupted', text: state.draftText };
    case 'detached':
      return { state: 'detached', text: state.draftText };
    case 'idle':
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
      return { state: 'streaming', text: state.draftText };
    case 'settled':
      return { state: 'settled' };
    default:
      return state.phase satisfies never;
  }
}

/**
 * The data parts of a settled outcome, in message order: the finish reason when it is known (`undefined`: not
 * known here, so no part rather than a `null` that would claim no root turn ended), then what the output status
 * carries.
 */
export function outcomeParts<P>(
  result: RunCompletedEvent,
  state: Pick<RunState<P>, 'payload' | 'sessionId'>,
  finishReason: string | null | undefined,
): KestrelDataPart<P>[] {
  const parts: KestrelDataPart<P>[] =
    finishReason === undefined ? [] : [{ type: 'data-kestrel-finish', id: 'kestrel-finish', data: { finishReason } }];
  const output = result.output;
  switch (output.status) {
    case 'COMPLETED': {
      const payload = state.payload;
      if (payload?.status === 'valid')
        parts.push({
          type: 'data-kestrel-payload',
          id: 'kestrel-payload',
          data: { status: 'valid', value: payload.value },
        });
      if (payload?.status === 'invalid') {
        parts.push({
          type: 'data-kestrel-payload',
          id: 'kestrel-payload',
          data: { status: 'invalid', raw: payload.raw, issues: payload.issues },
        });
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
        data: {
          runId: result.runId,
          sessionId: state.sessionId ?? result.sessionId,
          seq: result.seq,
          interaction: output.interaction,
        },
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

/** Tool output in the one shape the AI SDK's error state takes: text. JSON is kept whole. */
export function toolErrorText(output: unknown): string {
  if (typeof output === 'string') return output;
  return output === undefined ? 'The tool reported an error' : JSON.stringify(output);
}
