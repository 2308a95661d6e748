import type { RunError, RunEvent, RunState } from '@kestrel/core';
import type { UIMessageChunk } from 'ai';
import {
  SUPERSEDED_DRAFT,
  clientErrorPart,
  finalText,
  kestrelMessageId,
  outcomeParts,
  statusPart,
  toAIFinishReason,
  toolErrorText,
} from './kestrel-parts.js';

/** How the message a writer builds ended: not yet, finished on `run.completed`, failed without an outcome, or detached. */
export type RunChunkEnd = { readonly kind: 'open' } | { readonly kind: 'finished' } | { readonly kind: 'failed'; readonly error: RunError } | { readonly kind: 'detached' };

/** Turns successive `RunState`s of one run into AI SDK `UIMessageChunk`s, for a custom stream; made by `createRunChunkWriter`. */
export interface RunChunkWriter {
  /** The chunks that bring the message up to `state`, and whether it has ended. Call it with every state seen. */
  next(state: RunState<unknown>): { readonly chunks: UIMessageChunk[]; readonly end: RunChunkEnd };
}

const TEXT_ID = 'text';
const FINAL_TEXT_ID = 'text-final';
const REASONING_ID = 'reasoning';

/** Events with a seq above `cursor`, oldest first; reads only the tail of the log. */
function eventsAfter(state: RunState<unknown>, cursor: number): RunEvent[] {
  const fresh: RunEvent[] = [];
  for (let index = state.events.length - 1; index >= 0; index--) {
    const event = state.events.at(index);
    if (event === undefined || event.seq <= cursor) break;
    fresh.push(event);
  }
  return fresh.reverse();
}

/**
 * Turns successive states of one run attempt into AI SDK UI message chunks. It reads the new events of each state
 * (not the state's accumulated strings), so parts appear in wire order however the states were batched.
 *
 * `fromSeq` is the last seq before this attempt: an answer's attempt continues the run's seq numbering.
 *
 * @example
 * const writer = createRunChunkWriter();
 * handle.subscribe(() => { for (const chunk of writer.next(handle.getState()).chunks) controller.enqueue(chunk); });
 */
export function createRunChunkWriter(options: { readonly fromSeq?: number } = {}): RunChunkWriter {
  let cursor = options.fromSeq ?? 0;
  let started = false;
  let lastPhase: RunState['phase'] | null = null;
  let reasoningOpen = false;
  let textOpen = false;
  let draft = '';
  const startedTools = new Set<string>();
  let end: RunChunkEnd = { kind: 'open' };

  function translate(event: RunEvent, state: RunState<unknown>, out: UIMessageChunk[]): void {
    switch (event.type) {
      case 'reasoning.delta':
        if (!reasoningOpen) out.push({ type: 'reasoning-start', id: REASONING_ID });
        reasoningOpen = true;
        out.push({ type: 'reasoning-delta', id: REASONING_ID, delta: event.delta });
        return;
      case 'text.delta':
        if (!textOpen) out.push({ type: 'text-start', id: TEXT_ID });
        textOpen = true;
        draft += event.delta;
        out.push({ type: 'text-delta', id: TEXT_ID, delta: event.delta });
        return;
      case 'tool.started':
        startedTools.add(event.callId);
        out.push({ type: 'tool-input-available', toolCallId: event.callId, toolName: event.name, input: event.input, dynamic: true, providerExecuted: true });
        return;
      case 'tool.completed': {
        if (!startedTools.has(event.callId)) {
          // A result without its start: the reducer keeps it under an empty name, and so does the message.
          const known = state.tools.find((tool) => tool.callId === event.callId);
          startedTools.add(event.callId);
          out.push({ type: 'tool-input-available', toolCallId: event.callId, toolName: known?.name ?? '', input: known?.input, dynamic: true, providerExecuted: true });
        }
        out.push(
          event.isError === true
            ? { type: 'tool-output-error', toolCallId: event.callId, errorText: toolErrorText(event.output), dynamic: true, providerExecuted: true }
            : { type: 'tool-output-available', toolCallId: event.callId, output: event.output, dynamic: true, providerExecuted: true },
        );
        return;
      }
      case 'progress':
        // Transient: `useChat` passes it to `onData` and keeps it off the message.
        out.push({ type: 'data-kestrel-progress', id: 'kestrel-progress', data: { label: event.label, fraction: event.fraction ?? null }, transient: true });
        return;
      default:
        // Logs, turn ends and unknown events stay on the run state; the message has no part for them.
        return;
    }
  }

  function settle(state: RunState<unknown>, out: UIMessageChunk[]): void {
    const result = state.result;
    if (result === null) return;
    if (reasoningOpen) out.push({ type: 'reasoning-end', id: REASONING_ID });
    const text = finalText(result);
    if (textOpen && text !== null && text.startsWith(draft)) {
      if (text.length > draft.length) out.push({ type: 'text-delta', id: TEXT_ID, delta: text.slice(draft.length) });
      out.push({ type: 'text-end', id: TEXT_ID });
    } else {
      // The stream cannot take text back: the draft is closed and marked, and the final text follows on its own.
      if (textOpen) out.push({ type: 'text-end', id: TEXT_ID, providerMetadata: SUPERSEDED_DRAFT });
      if (text !== null) {
        out.push({ type: 'text-start', id: FINAL_TEXT_ID }, { type: 'text-delta', id: FINAL_TEXT_ID, delta: text }, { type: 'text-end', id: FINAL_TEXT_ID });
      }
    }
    out.push(...outcomeParts(result, state));
    out.push({ type: 'finish', finishReason: toAIFinishReason(state.finishReason) });
  }

  return {
    next(state) {
      if (end.kind !== 'open') return { chunks: [], end };
      const out: UIMessageChunk[] = [];
      const fresh = eventsAfter(state, cursor);
      const settled = state.phase === 'settled' && state.result !== null;
      if (!started && (fresh.length > 0 || settled)) {
        started = true;
        const attempt = fresh.find((event) => event.type === 'run.started')?.attempt ?? state.result?.attempt ?? state.attempt;
        out.push({ type: 'start', messageId: kestrelMessageId(state.runId ?? state.result?.runId ?? null, attempt ?? null) });
      }
      for (const event of fresh) translate(event, state, out);
      if (fresh.length > 0) cursor = fresh[fresh.length - 1]!.seq;
      // The status part is written first and then replaced in place (same id) whenever the phase moves.
      if (started && state.phase !== lastPhase) {
        out.splice(lastPhase === null ? 1 : out.length, 0, statusPart(state));
        lastPhase = state.phase;
      }
      if (settled) {
        settle(state, out);
        end = { kind: 'finished' };
      } else if (state.phase === 'error' && state.error !== null) {
        if (started) out.push(clientErrorPart(state.error));
        end = { kind: 'failed', error: state.error };
      } else if (state.phase === 'detached') {
        end = { kind: 'detached' };
      }
      return { chunks: out, end };
    },
  };
}
