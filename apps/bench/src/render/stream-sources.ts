import { createRunClient, encodeSSEEvent, type FrameScheduler, type RunClient } from '@kestrel/core';
import { createEventFactory } from '@kestrel/testing';
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { deliverOnSchedule } from './deliveries.js';
import type { Rate } from './trial-types.js';

export interface SourceOptions {
  readonly rate: Rate;
  /** The run client's motion scheduler; the client's default (animation frames) when absent. */
  readonly scheduler?: FrameScheduler;
  /** Told after each delivery: how many deltas have been handed over in all. */
  readonly onDelivered?: (sent: number) => void;
}

/** Kestrel SSE bytes of one run answering `deltas` on the schedule: the real wire format, as a response body. */
export function kestrelStream(
  deltas: readonly string[],
  options: SourceOptions,
  ids: { readonly runId: string; readonly sessionId: string } = { runId: 'run_render', sessionId: 'ses_render' },
): ReadableStream<Uint8Array> {
  const e = createEventFactory(ids);
  const head = encodeSSEEvent(e.started()) + encodeSSEEvent(e.received());
  const frames = deltas.map((delta) => encodeSSEEvent(e.text(delta)));
  const tail =
    encodeSSEEvent(e.turnEnd('completed')) +
    encodeSSEEvent(e.idle()) +
    encodeSSEEvent(e.completed({ status: 'COMPLETED', assistantText: deltas.join('') }));
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
      void deliverOnSchedule(frames.length, options.rate, (from, to) => {
        controller.enqueue(encoder.encode(frames.slice(from, to).join('')));
        options.onDelivered?.(to);
      }).then(() => {
        controller.enqueue(encoder.encode(tail));
        controller.close();
      });
    },
  });
}

/** The kit's side: Kestrel SSE bytes (the real wire format), read by the run client through a fetch. */
export function kestrelClient(deltas: readonly string[], options: SourceOptions): RunClient {
  const body = kestrelStream(deltas, options);
  return createRunClient({
    baseUrl: 'http://bench.invalid',
    fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    scheduler: options.scheduler,
  });
}

/**
 * useChat's side: the same text through a custom ChatTransport that hands the AI SDK ready-made chunks on the
 * same schedule. It skips any wire parsing the kit does (SSE, JSON, zod), so the comparison leans its way.
 */
export function chunkTransport(deltas: readonly string[], options: SourceOptions): ChatTransport<UIMessage> {
  return {
    async sendMessages() {
      return new ReadableStream<UIMessageChunk>({
        start(controller) {
          controller.enqueue({ type: 'start' });
          controller.enqueue({ type: 'text-start', id: 'text_1' });
          void deliverOnSchedule(deltas.length, options.rate, (from, to) => {
            for (let i = from; i < to; i++) controller.enqueue({ type: 'text-delta', id: 'text_1', delta: deltas[i]! });
            options.onDelivered?.(to);
          }).then(() => {
            controller.enqueue({ type: 'text-end', id: 'text_1' });
            controller.enqueue({ type: 'finish' });
            controller.close();
          });
        },
      });
    },
    async reconnectToStream() {
      return null;
    },
  };
}
