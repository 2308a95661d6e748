import {
  ProtocolError,
  decodeSSE,
  encodeSSEComment,
  parseSSEMessage,
  type RunEvent,
  type SSEMessage,
} from '@kestrel/core';

export interface ValidatedStreamOptions {
  /** Called once when the upstream breaks the protocol; the response ends right after the offending message. */
  readonly onProtocolError: (error: ProtocolError) => void;
  /** Called when the browser goes away, to stop reading the upstream. */
  readonly onCancel: () => void;
  /**
   * Awaited with the first valid event before it is forwarded (the browser learns the run's ids from it). When it
   * rejects, the response is cut (a dropped connection) and nothing of the run is forwarded.
   */
  readonly onFirstEvent?: (event: RunEvent) => Promise<void>;
  /** Longest message (or unfinished line) read from upstream; a longer one ends the response like a protocol error. */
  readonly maxMessageBytes?: number;
}

/** Re-frames one message exactly as received (type, id and data lines), so nothing is lost or rewritten. */
function frame(message: SSEMessage): string {
  const event = message.event === undefined || message.event === '' ? '' : `event: ${message.event}\n`;
  const id = message.id === undefined ? '' : `id: ${message.id}\n`;
  const data = message.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${event}${id}${data}\n`;
}

/**
 * Passes an upstream Kestrel event stream through, validating every message with the core schemas on the way.
 *
 * - A valid message is forwarded as the upstream framed it.
 * - The first message that breaks the protocol (bad JSON, wrong fields, a name that disagrees with `data.type`, an
 *   event after `run.completed`) is forwarded unchanged as the LAST message, reported through `onProtocolError`,
 *   and the response then ends. The browser's client validates it too and shows the same protocol error, naming
 *   the seq and field, instead of a vague broken connection; nothing after it reaches the browser.
 * - Upstream keep-alive comments are forwarded; the proxy writes none of its own, so a silent upstream stays
 *   silent and the browser's heartbeat timeout can notice it.
 * - A clean upstream end ends the response (no terminal event is ever invented); an upstream that drops makes the
 *   response error, which cuts the browser's connection so that it resumes.
 */
export function validatedEventStream(
  upstream: ReadableStream<Uint8Array>,
  options: ValidatedStreamOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let messages: AsyncGenerator<SSEMessage, void, undefined> | undefined;
  let settled = false;
  let stopped = false;
  let first = true;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      messages = decodeSSE(upstream, {
        onComment: (comment) => {
          if (!stopped) controller.enqueue(encoder.encode(encodeSSEComment(comment)));
        },
        maxMessageBytes: options.maxMessageBytes,
      });
    },
    async pull(controller) {
      if (messages === undefined || stopped) return;
      let next: IteratorResult<SSEMessage, void>;
      try {
        next = await messages.next();
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        // An oversized message: none of it is forwarded (it was never whole), and the response ends cleanly, so the
        // browser sees a stream cut short (no outcome) instead of resuming into the same message again and again.
        stopped = true;
        controller.close();
        options.onProtocolError(error);
        return;
      }
      if (stopped) return;
      if (next.done === true) {
        stopped = true;
        controller.close();
        return;
      }
      const message = next.value;
      let event: RunEvent;
      try {
        event = parseSSEMessage(message);
        if (settled) {
          throw new ProtocolError('event after run.completed', {
            eventType: event.type === 'unknown' ? event.unknownType : event.type,
            seq: event.seq,
            raw: message.data,
          });
        }
        if (event.type === 'run.completed') settled = true;
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        stopped = true;
        controller.enqueue(encoder.encode(frame(message)));
        controller.close();
        options.onProtocolError(error);
        await messages.return(undefined).catch(() => undefined);
        return;
      }
      if (first && options.onFirstEvent !== undefined) {
        first = false;
        try {
          await options.onFirstEvent(event);
        } catch (error) {
          stopped = true;
          options.onCancel();
          controller.error(error);
          await messages.return(undefined).catch(() => undefined);
          return;
        }
        if (stopped) return;
      }
      controller.enqueue(encoder.encode(frame(message)));
    },
    async cancel() {
      stopped = true;
      options.onCancel();
      await messages?.return(undefined).catch(() => undefined);
    },
  });
}
