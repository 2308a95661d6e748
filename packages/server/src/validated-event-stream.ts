import type { ProtocolError, RunEvent } from '@kestrel/core';
import { DEFAULT_MAX_MESSAGE_BYTES } from '@kestrel/core/internal';
import { EventStreamChecker, forwardedBytes, reportProtocolError } from './event-stream-checker.js';

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

type Controller = ReadableStreamDefaultController<Uint8Array>;

/** The web-stream relay of one stream: the source of the stream the browser reads, fed by the upstream's reader. */
class EventStreamRelay implements UnderlyingDefaultSource<Uint8Array> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly checker: EventStreamChecker;
  private options: ValidatedStreamOptions | undefined;
  private stopped = false;

  constructor(upstream: ReadableStream<Uint8Array>, options: ValidatedStreamOptions) {
    this.reader = upstream.getReader();
    this.options = options;
    this.checker = new EventStreamChecker(
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      options.onFirstEvent !== undefined,
    );
  }

  async pull(controller: Controller): Promise<void> {
    while (!this.stopped) {
      const next = await this.reader.read();
      if (this.stopped) return;
      if (next.done) {
        this.finish();
        controller.close();
        return;
      }
      if (await this.relay(controller, next.value)) return;
    }
  }

  async cancel(): Promise<void> {
    this.options?.onCancel();
    await this.stop();
  }

  /** Lets go of everything the relay holds: the stream is over. */
  private finish(): void {
    this.stopped = true;
    this.checker.release();
    this.options = undefined;
  }

  private async stop(): Promise<void> {
    this.finish();
    await this.reader.cancel().catch(() => undefined);
  }

  /** Handles one upstream chunk; true when something was enqueued or the stream ended. */
  private async relay(controller: Controller, bytes: Uint8Array): Promise<boolean> {
    const verdict = this.checker.check(bytes);
    const first = this.checker.takeFirst();
    const onFirstEvent = this.options?.onFirstEvent;
    if (first !== undefined && onFirstEvent !== undefined) {
      try {
        await onFirstEvent(first);
      } catch (error) {
        this.options?.onCancel();
        controller.error(error);
        await this.stop();
        return true;
      }
      if (this.stopped) return true;
    }
    switch (verdict.kind) {
      case 'hold':
        return false;
      case 'forward':
        // One chunk of whole messages: what a reader of this stream (not only a browser's parser) may count on.
        controller.enqueue(forwardedBytes(verdict));
        return true;
      case 'end': {
        if (verdict.bytes !== undefined && verdict.bytes.length > 0) controller.enqueue(verdict.bytes);
        controller.close();
        reportProtocolError(this.options?.onProtocolError, verdict.error);
        await this.stop();
        return true;
      }
      default:
        return verdict satisfies never;
    }
  }
}

/**
 * Passes an upstream Kestrel event stream through, validating every message with the core schemas on the way.
 *
 * - Relayed a chunk at a time: each upstream chunk is parsed, its messages are validated, and everything up to its
 *   last complete message goes out in one write, exactly the bytes Kestrel sent (its framing, ids, comments), so
 *   the browser receives the upstream's batching. The rest of a message a chunk ends inside waits for the chunk
 *   that completes it (at most `maxMessageBytes`).
 * - The first message that breaks the protocol (bad JSON, wrong fields, a name that disagrees with `data.type`, an
 *   event after `run.completed`) is forwarded unchanged as the LAST message, reported through `onProtocolError`,
 *   and the response then ends. The browser's client validates it too and shows the same protocol error, naming
 *   the seq and field, instead of a vague broken connection; nothing after it reaches the browser.
 * - Upstream keep-alive comments are forwarded; the proxy writes none of its own, so a silent upstream stays
 *   silent and the browser's heartbeat timeout can notice it.
 * - A clean upstream end ends the response (no terminal event is ever invented; a message cut off by the end is
 *   not forwarded); an upstream that drops makes the response error, which cuts the browser's connection so that
 *   it resumes.
 */
export function validatedEventStream(
  upstream: ReadableStream<Uint8Array>,
  options: ValidatedStreamOptions,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(new EventStreamRelay(upstream, options));
}
