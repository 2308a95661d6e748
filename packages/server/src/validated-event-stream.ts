import { ProtocolError, parseSSEMessage, type RunEvent, type SSEMessage } from '@kestrel/core';
import { createSSEParser, DEFAULT_MAX_MESSAGE_BYTES } from '@kestrel/core/internal';

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

const LF = 10;
const CR = 13;

/** A message the current chunk completed, and where it ends in the chunk's text (just past its blank line). */
interface Completed {
  readonly message: SSEMessage;
  end: number;
}

interface RelayState {
  settled: boolean;
  firstSeen: boolean;
  /** The first event, until `onFirstEvent` has heard it. */
  first: RunEvent | undefined;
}

/** The first of the chunk's messages that breaks the protocol (or follows `run.completed`), or undefined. */
function firstInvalid(
  completed: readonly Completed[],
  state: RelayState,
): { readonly at: Completed; readonly error: ProtocolError } | undefined {
  for (const entry of completed) {
    try {
      const event = parseSSEMessage(entry.message);
      if (state.settled) {
        throw new ProtocolError('event after run.completed', {
          eventType: event.type === 'unknown' ? event.unknownType : event.type,
          seq: event.seq,
          raw: entry.message.data,
        });
      }
      if (event.type === 'run.completed') state.settled = true;
      if (!state.firstSeen) {
        state.firstSeen = true;
        state.first = event;
      }
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      return { at: entry, error };
    }
  }
  return undefined;
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
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const reader = upstream.getReader();
  const state: RelayState = { settled: false, firstSeen: false, first: undefined };
  let firstHeard = options.onFirstEvent === undefined;
  let atStart = true;
  let stopped = false;
  // Text received but not forwarded yet: the start of a message that no chunk has completed so far.
  let held = '';
  // Filled by the parser while one chunk is fed; emptied per chunk.
  let completed: Completed[] = [];
  let boundary = -1;
  const feed = createSSEParser(
    (message) => completed.push({ message, end: -1 }),
    undefined,
    maxMessageBytes,
    (index) => {
      boundary = index;
      const last = completed[completed.length - 1];
      if (last !== undefined && last.end < 0) last.end = index;
    },
  );

  const decode = (bytes: Uint8Array): string => {
    const text = decoder.decode(bytes, { stream: true });
    if (!atStart || text === '') return text;
    atStart = false;
    // Only to parse: the BOM is not forwarded (the browser's decoder would drop it anyway).
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };

  const stop = async (): Promise<void> => {
    stopped = true;
    await reader.cancel().catch(() => undefined);
  };

  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string): void => {
    if (text !== '') controller.enqueue(encoder.encode(text));
  };

  const end = async (
    controller: ReadableStreamDefaultController<Uint8Array>,
    last: string,
    error: ProtocolError,
  ): Promise<void> => {
    send(controller, last);
    controller.close();
    stopped = true;
    options.onProtocolError(error);
    await stop();
  };

  /** Handles one upstream chunk; true when something was enqueued or the stream ended. */
  const relay = async (
    controller: ReadableStreamDefaultController<Uint8Array>,
    bytes: Uint8Array,
  ): Promise<boolean> => {
    const text = decode(bytes);
    completed = [];
    boundary = -1;
    let oversized: ProtocolError | undefined;
    try {
      feed(text);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      oversized = error;
    }
    const invalid = firstInvalid(completed, state);
    // The messages hold slices of the chunk's text: let go of them before an idle wait, not at the next chunk.
    completed = [];
    if (invalid !== undefined) {
      await end(controller, held + text.slice(0, invalid.at.end), invalid.error);
      return true;
    }
    if (!firstHeard && state.first !== undefined && options.onFirstEvent !== undefined) {
      firstHeard = true;
      const first = state.first;
      state.first = undefined;
      try {
        await options.onFirstEvent(first);
      } catch (error) {
        stopped = true;
        options.onCancel();
        controller.error(error);
        await reader.cancel().catch(() => undefined);
        return true;
      }
      if (stopped) return true;
    }
    // Messages before an oversized one are whole and valid: they go out first; none of the oversized one does,
    // and the response ends cleanly, so the browser sees a stream cut short instead of resuming into it forever.
    if (oversized !== undefined) {
      await end(controller, boundary < 0 ? '' : held + text.slice(0, boundary), oversized);
      return true;
    }
    if (boundary < 0) {
      held += text;
      if (held.length > maxMessageBytes) {
        await end(
          controller,
          '',
          new ProtocolError(`SSE message of ${held.length}+ bytes is over maxMessageBytes (${maxMessageBytes})`),
        );
        return true;
      }
      return false;
    }
    const last = bytes[bytes.length - 1];
    // The common case, a chunk of whole messages: its own bytes go on, with no re-encoding. Only when it ends
    // on a line break, so no half character the decoder still holds goes out twice.
    if (held === '' && boundary === text.length && (last === LF || last === CR)) controller.enqueue(bytes);
    else send(controller, held + text.slice(0, boundary));
    held = text.slice(boundary);
    return true;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!stopped) {
        const next = await reader.read();
        if (stopped) return;
        if (next.done) {
          stopped = true;
          controller.close();
          return;
        }
        if (await relay(controller, next.value)) return;
      }
    },
    async cancel() {
      options.onCancel();
      await stop();
    },
  });
}
