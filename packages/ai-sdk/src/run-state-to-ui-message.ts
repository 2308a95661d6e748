import {
  createInitialRunState,
  reduceRun,
  type PayloadSchema,
  type RunCompletedEvent,
  type RunState,
  type ToolCall,
} from '@kestrel/core';
import type { DynamicToolUIPart } from 'ai';
import type { KestrelUIMessage } from './data-part-schemas.js';
import {
  clientErrorPart,
  draftPart,
  finalText,
  kestrelMessageId,
  outcomeParts,
  statusPart,
  toolErrorText,
} from './kestrel-parts.js';

/** Options of `runStateToUIMessage`/`runCompletedToUIMessage`, e.g. to give the message your own id. */
export interface RunMessageOptions {
  /** The message id; defaults to `kestrel-<runId>-<attempt>`, the id the transport gives the same attempt. */
  readonly id?: string;
}

type Part<P> = KestrelUIMessage<P>['parts'][number];

/** The tool call as an AI SDK dynamic tool part: Kestrel's tools run on the server and are not known to the app's types. */
export function toolCallToPart(tool: ToolCall): DynamicToolUIPart {
  const base = { type: 'dynamic-tool', toolName: tool.name, toolCallId: tool.callId, providerExecuted: true } as const;
  switch (tool.status) {
    case 'running':
      return { ...base, state: 'input-available', input: tool.input };
    case 'succeeded':
      return { ...base, state: 'output-available', input: tool.input, output: tool.output };
    case 'failed':
      return { ...base, state: 'output-error', input: tool.input, errorText: toolErrorText(tool.output) };
    default:
      return tool.status satisfies never;
  }
}

/**
 * The seq of the first reasoning and text delta of the current attempt, so parts keep the order in which they
 * appeared on the stream (the order the transport builds them in). Scans only the current attempt's events.
 */
function firstDeltaSeqs(state: RunState<unknown>): { reasoning: number; text: number } {
  const found = { reasoning: Number.POSITIVE_INFINITY, text: Number.POSITIVE_INFINITY };
  for (let index = state.events.length - 1; index >= 0; index--) {
    const event = state.events.at(index);
    if (event === undefined || event.type === 'run.started') break;
    if (event.type === 'run.completed' && event.seq !== state.result?.seq) break; // an earlier attempt's end
    if (event.type === 'reasoning.delta') found.reasoning = event.seq;
    if (event.type === 'text.delta' && event.delta !== '') found.text = event.seq;
  }
  return found;
}

/**
 * A run's state as one AI SDK assistant message: the message `KestrelChatTransport` streams for the same run.
 *
 * - Text: a `text` part (state `done`) holds only the settled `output.assistantText`, and comes after the activity.
 *   The streamed draft is a `data-kestrel-draft` part where it first appeared: its text while the run streams,
 *   `interrupted` or `detached` with its text when the run stopped without an outcome, and no text once settled.
 * - Reasoning as a reasoning part, tool calls as `dynamic-tool` parts (`input-available`, `output-available`,
 *   `output-error`).
 * - `data-kestrel-status` first; then, once settled, `data-kestrel-finish` (when the finish reason is known) and the
 *   part the output status carries (`-payload`, `-error`, `-cancellation` or `-interaction`); after a client-side
 *   failure, `data-kestrel-error`.
 *
 * @example
 * const message = runStateToUIMessage(handle.getState());
 * const waiting = message.parts.find((part) => part.type === 'data-kestrel-interaction');
 */
export function runStateToUIMessage<P>(state: RunState<P>, options: RunMessageOptions = {}): KestrelUIMessage<P> {
  return toMessage(state, state.finishReason, options.id);
}

function toMessage<P>(
  state: RunState<P>,
  finishReason: string | null | undefined,
  id: string | undefined,
): KestrelUIMessage<P> {
  const result = state.result;
  const done = state.phase === 'settled';
  const seqs = firstDeltaSeqs(state);
  const ordered: { seq: number; part: Part<P> }[] = [];
  if (state.reasoning !== '') {
    ordered.push({
      seq: seqs.reasoning,
      part: { type: 'reasoning', id: 'reasoning', text: state.reasoning, state: done ? 'done' : 'streaming' },
    });
  }
  for (const tool of state.tools) ordered.push({ seq: tool.startedSeq, part: toolCallToPart(tool) });
  const draft = draftPart(state);
  if (draft !== null) ordered.push({ seq: seqs.text, part: draft as Part<P> });
  ordered.sort((a, b) => a.seq - b.seq);

  const parts: Part<P>[] = [statusPart(state) as Part<P>, ...ordered.map((entry) => entry.part)];
  if (result !== null) {
    const text = finalText(result);
    if (text !== null) parts.push({ type: 'text', text, state: 'done' });
    parts.push(...(outcomeParts(result, state, finishReason) as Part<P>[]));
  }
  if (state.phase === 'error' && state.error !== null) parts.push(clientErrorPart(state.error) as Part<P>);
  return { id: id ?? kestrelMessageId(state.runId ?? result?.runId ?? null, state.attempt), role: 'assistant', parts };
}

/**
 * A settled `run.completed` event (from the JSON route or `client.fetchResult`) as an AI SDK message. Without
 * the stream there is no reasoning, tool activity or draft to show, and the finish reason is not known: the
 * message has no `data-kestrel-finish` part.
 *
 * @example
 * const event = await client.run({ input: 'Extract the invoice', responseFormat: invoiceFormat });
 * const message = runCompletedToUIMessage(event, { payloadSchema: invoiceSchema });
 */
export function runCompletedToUIMessage<P = unknown>(
  event: RunCompletedEvent,
  options: RunMessageOptions & { readonly payloadSchema?: PayloadSchema<P> } = {},
): KestrelUIMessage<P> {
  const initial = createInitialRunState<P>({ payloadSchema: options.payloadSchema });
  const state = reduceRun(
    reduceRun(initial, { type: 'client/start-requested', mode: 'resume', runId: event.runId }),
    event,
  );
  // Only the terminal event: whether a root turn ended in the run interval is unknown, not "none".
  return toMessage(state, undefined, options.id ?? kestrelMessageId(event.runId, event.attempt));
}
