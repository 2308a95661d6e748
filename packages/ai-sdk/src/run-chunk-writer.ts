import type { RunError, RunEvent, RunState } from '@kestrel/core';
import type { UIMessageChunk } from 'ai';
import {
  clientErrorPart,
  draftPart,
  finalText,
  kestrelMessageId,
  outcomeParts,
  statusPart,
  toolErrorText,
} from './kestrel-parts.js';

/** How the message a writer builds ended: not yet, finished on `run.completed`, failed without an outcome, or detached. */
export type RunChunkEnd =
  | { readonly kind: 'open' }
  | { readonly kind: 'finished' }
  | { readonly kind: 'failed'; readonly error: RunError }
  | { readonly kind: 'detached' };

/** Turns successive `RunState`s of one run into AI SDK `UIMessageChunk`s, for a custom stream; made by `createRunChunkWriter`. */
export interface RunChunkWriter {
  /** The chunks that bring the message up to `state`, and whether it has ended. Call it with every state seen. */
  next(state: RunState<unknown>): { readonly chunks: UIMessageChunk[]; readonly end: RunChunkEnd };
}

const TEXT_ID = 'text';
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
 * Turns successive states of one run attempt into AI SDK UI message chunks. It reads the new events of each state,
 * so parts appear in wire order however the states were batched. The draft streams as a `data-kestrel-draft` part
 * (the whole draft, at most once per state); the only `text` part is the settled `output.assistantText`.
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
  /** Characters of `state.reasoning` already sent, so deltas folded out of `state.events` are still sent. */
  let reasoningSent = 0;
  /** Length of the draft last sent, for the same reason. */
  let draftSent = 0;
  /** Where in the current batch's chunks the draft goes (its first new delta), or `null` when no text streamed in it. */
  let draftAt: number | null = null;
  let draftShown = false;
  const startedTools = new Set<string>();
  let end: RunChunkEnd = { kind: 'open' };

  function translate(event: RunEvent, state: RunState<unknown>, out: UIMessageChunk[]): void {
    switch (event.type) {
      case 'reasoning.delta':
        sendReasoning(event.delta, out);
        return;
      case 'text.delta':
        // The draft is a data part holding the whole draft, so it is sent once per batch rather than per delta.
        if (event.delta !== '') draftAt ??= out.length;
        return;
      case 'tool.started':
        startedTools.add(event.callId);
        out.push({
          type: 'tool-input-available',
          toolCallId: event.callId,
          toolName: event.name,
          input: event.input,
          dynamic: true,
          providerExecuted: true,
        });
        return;
      case 'tool.completed': {
        if (!startedTools.has(event.callId)) {
          // A result without its start: the reducer keeps it under an empty name, and so does the message.
          const known = state.tools.find((tool) => tool.callId === event.callId);
          startedTools.add(event.callId);
          out.push({
            type: 'tool-input-available',
            toolCallId: event.callId,
            toolName: known?.name ?? '',
            input: known?.input,
            dynamic: true,
            providerExecuted: true,
          });
        }
        out.push(
          event.isError === true
            ? {
                type: 'tool-output-error',
                toolCallId: event.callId,
                errorText: toolErrorText(event.output),
                dynamic: true,
                providerExecuted: true,
              }
            : {
                type: 'tool-output-available',
                toolCallId: event.callId,
                output: event.output,
                dynamic: true,
                providerExecuted: true,
              },
        );
        return;
      }
      case 'progress':
        // Transient: `useChat` passes it to `onData` and keeps it off the message.
        out.push({
          type: 'data-kestrel-progress',
          id: 'kestrel-progress',
          data: { label: event.label, fraction: event.fraction ?? null },
          transient: true,
        });
        return;
      default:
        // Logs, turn ends and unknown events stay on the run state; the message has no part for them.
        return;
    }
  }

  function sendReasoning(delta: string, out: UIMessageChunk[]): void {
    if (!reasoningOpen) out.push({ type: 'reasoning-start', id: REASONING_ID });
    reasoningOpen = true;
    reasoningSent += delta.length;
    out.push({ type: 'reasoning-delta', id: REASONING_ID, delta });
  }

  /**
   * With `retainEvents: 'structural'`, a run of deltas keeps only its first event: the rest of the text is read
   * from the state, after this batch's events (reasoning is one part, so it still lands in the right place).
   */
  function sendFolded(state: RunState<unknown>, out: UIMessageChunk[]): void {
    if (state.retainEvents !== 'structural') return;
    if (state.reasoning.length > reasoningSent) sendReasoning(state.reasoning.slice(reasoningSent), out);
    if (draftAt === null && state.draftText.length > draftSent) draftAt = out.length;
  }

  function settle(state: RunState<unknown>, out: UIMessageChunk[]): void {
    const result = state.result;
    if (result === null) return;
    if (reasoningOpen) out.push({ type: 'reasoning-end', id: REASONING_ID });
    // The only text part: the output's own text, whatever the draft said.
    const text = finalText(result);
    if (text !== null)
      out.push(
        { type: 'text-start', id: TEXT_ID },
        { type: 'text-delta', id: TEXT_ID, delta: text },
        { type: 'text-end', id: TEXT_ID },
      );
    out.push(...outcomeParts(result, state, state.finishReason));
    // No finishReason: the AI SDK's is the reply's, Kestrel's describes the run (data-kestrel-finish carries it).
    out.push({ type: 'finish' });
  }

  return {
    next(state) {
      if (end.kind !== 'open') return { chunks: [], end };
      const out: UIMessageChunk[] = [];
      const fresh = eventsAfter(state, cursor);
      const settled = state.phase === 'settled' && state.result !== null;
      if (!started && (fresh.length > 0 || settled)) {
        started = true;
        const attempt =
          fresh.find((event) => event.type === 'run.started')?.attempt ?? state.result?.attempt ?? state.attempt;
        out.push({
          type: 'start',
          messageId: kestrelMessageId(state.runId ?? state.result?.runId ?? null, attempt ?? null),
        });
      }
      draftAt = null;
      for (const event of fresh) translate(event, state, out);
      if (fresh.length > 0) cursor = fresh[fresh.length - 1]!.seq;
      if (started) sendFolded(state, out);
      const phaseMoved = started && state.phase !== lastPhase;
      const draft = draftPart(state);
      if (draft !== null && draftAt !== null) {
        out.splice(draftAt, 0, draft);
        draftSent = state.draftText.length;
      }
      // A phase change restates a draft already on the message: interrupted, detached, or withdrawn once settled.
      else if (draft !== null && draftShown && phaseMoved) out.push(draft);
      draftShown ||= draftAt !== null;
      // The status part is written first and then replaced in place (same id) whenever the phase moves.
      if (phaseMoved) {
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
