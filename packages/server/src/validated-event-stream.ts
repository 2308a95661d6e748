import { ProtocolError, parseSSEMessage, type RunEvent, type SSEMessage } from '@kestrel/core';
import { createSSEParser, DEFAULT_MAX_MESSAGE_BYTES, fastAcceptMessage } from '@kestrel/core/internal';

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

/** Thrown from the parser's boundary callback to stop reading a chunk once its first invalid message is complete. */
const STOP = Symbol('stop');

/**
 * Where `index` of `text` (just past a line break) falls in `bytes`, the chunk `text` was decoded from: counted from
 * the end, where each CR or LF character of the text is one CR or LF byte of the chunk (never part of a multi-byte
 * sequence, never what a broken one decodes to), so the bytes after the index are the upstream's own, exactly.
 */
function byteOffset(bytes: Uint8Array, text: string, index: number): number {
  let breaks = 0;
  for (let i = index; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || code === CR) breaks++;
  }
  let at = bytes.length;
  while (at > 0) {
    const byte = bytes[--at];
    if ((byte === LF || byte === CR) && breaks-- === 0) return at + 1;
  }
  return 0; // unreachable: the text holds one more line break than counted
}

/**
 * Shared: every decode is of whole characters (see completeUtf8), so no state is carried from one call to the next.
 * A streaming decoder would carry it, and on Node 20 it decodes about seven times slower than this.
 */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Where the unfinished UTF-8 character `bytes` ends with starts (its length when none): a lead byte without all its
 * continuation bytes. The decoder's state is the initial one at any lead or ASCII byte, so decoding up to there,
 * then from there with the next chunk, reads exactly what one decoder over the whole stream reads.
 */
function completeUtf8(bytes: Uint8Array): number {
  for (let at = bytes.length - 1; at >= 0 && at >= bytes.length - 4; at--) {
    const byte = bytes[at]!;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return bytes.length - at < length ? at : bytes.length;
    }
  }
  return bytes.length;
}

/** The held pieces and `bytes` as one array (a copy only when something was held). */
function joinBytes(held: readonly Uint8Array[], bytes: Uint8Array): Uint8Array {
  if (held.length === 0) return bytes;
  let size = bytes.length;
  for (const piece of held) size += piece.length;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const piece of held) {
    joined.set(piece, at);
    at += piece.length;
  }
  joined.set(bytes, at);
  return joined;
}

type Controller = ReadableStreamDefaultController<Uint8Array>;

/**
 * The relay of one stream, as the source of the stream the browser reads. A class, so an open stream holds one
 * object of fields (its methods are shared), not a closure per step: with hundreds of idle streams that counts.
 */
class EventStreamRelay implements UnderlyingDefaultSource<Uint8Array> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The last chunk's unfinished UTF-8 character (at most 3 bytes), decoded with the next chunk. */
  private partial: Uint8Array | undefined;
  private readonly maxMessageBytes: number;
  private readonly feed: (text: string) => void;
  private options: ValidatedStreamOptions | undefined;
  private settled = false;
  /** The first event, until `onFirstEvent` has heard it. */
  private first: RunEvent | undefined;
  private heard: boolean;
  private atStart = true;
  private stopped = false;
  /** Bytes received but not forwarded yet (the start of a message no chunk has completed so far), as received. */
  private held: Uint8Array[] = [];
  /** Their length as text: what maxMessageBytes counts, as the parser does. */
  private heldLength = 0;
  /** While one chunk is fed: the last boundary in its text, and its first invalid message with where it ends. */
  private boundary = -1;
  /** Where the piece of text the parser is fed starts in the chunk's text (its boundaries are counted from there). */
  private offset = 0;
  /** The parser holds the start of a message: it reads on to the next blank line. */
  private parserBusy = false;
  private invalid: ProtocolError | undefined;
  private invalidEnd = -1;

  constructor(upstream: ReadableStream<Uint8Array>, options: ValidatedStreamOptions) {
    this.reader = upstream.getReader();
    this.options = options;
    this.heard = options.onFirstEvent === undefined;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    // Each message is checked as the parser completes it: no list of messages per chunk.
    this.feed = createSSEParser(
      (message) => this.check(message),
      undefined,
      this.maxMessageBytes,
      (at) => {
        const index = this.offset + at;
        this.boundary = index;
        if (this.invalid === undefined) return;
        // The invalid message is whole: it goes out as the last one, and nothing after it is read.
        this.invalidEnd = index;
        throw STOP;
      },
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

  private check(message: SSEMessage): void {
    if (this.invalid !== undefined) return;
    try {
      const event = parseSSEMessage(message);
      if (this.settled) {
        throw new ProtocolError('event after run.completed', {
          eventType: event.type === 'unknown' ? event.unknownType : event.type,
          seq: event.seq,
          raw: message.data,
        });
      }
      if (event.type === 'run.completed') this.settled = true;
      if (!this.heard && this.first === undefined) this.first = event;
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.invalid = error;
    }
  }

  /**
   * Checks every message of one chunk's text. Most are read in place (fastAcceptMessage, no JSON.parse); one it
   * cannot vouch for, and anything the parser is in the middle of, goes through the parser and parseSSEMessage a
   * blank line at a time, which alone reports what is wrong. The first event (for onFirstEvent) and anything after
   * run.completed always take the parser's way. Two refused in a row, and the rest of the chunk goes to the parser
   * in one piece: an upstream that frames its events otherwise pays two tries a chunk, not one a message.
   */
  private scan(text: string): void {
    let at = 0;
    if (this.parserBusy) {
      const blank = text.indexOf('\n\n');
      if (blank < 0) return this.parse(text, 0, text.length);
      at = blank + 2;
      this.parse(text, 0, at);
    }
    let refused = 0;
    while (at < text.length) {
      if (!this.settled && (this.heard || this.first !== undefined)) {
        const end = fastAcceptMessage(text, at);
        if (end >= 0 && end - at <= this.maxMessageBytes) {
          this.boundary = end;
          at = end;
          refused = 0;
          continue;
        }
        if (++refused === 2) return this.parse(text, at, text.length);
      }
      const blank = text.indexOf('\n\n', at);
      if (blank < 0) return this.parse(text, at, text.length);
      const end = blank + 2;
      this.parse(text, at, end);
      at = end;
    }
  }

  /**
   * Feeds `text[from, to)` to the parser. It is between messages again when its last boundary is the end: always
   * after text that ends in a blank line (LF LF), whatever came before. (A CR ending the text leaves it waiting to
   * skip an LF that would open the next text, which is then a blank line outside any message: nothing to skip.)
   */
  private parse(text: string, from: number, to: number): void {
    this.offset = from;
    this.feed(from === 0 && to === text.length ? text : text.slice(from, to));
    this.parserBusy = this.boundary !== to;
  }

  private decode(bytes: Uint8Array): string {
    const whole = this.partial === undefined ? bytes : joinBytes([this.partial], bytes);
    const cut = completeUtf8(whole);
    this.partial = cut < whole.length ? whole.slice(cut) : undefined;
    const text = decoder.decode(cut < whole.length ? whole.subarray(0, cut) : whole);
    if (!this.atStart || text === '') return text;
    this.atStart = false;
    // Only to parse: the browser's decoder drops it too.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /** Lets go of everything the relay holds: the stream is over. */
  private finish(): void {
    this.stopped = true;
    this.held = [];
    this.partial = undefined;
    this.options = undefined;
  }

  private async stop(): Promise<void> {
    this.finish();
    await this.reader.cancel().catch(() => undefined);
  }

  /** What was held, then the chunk's own bytes up to byte `cut`, in one array. */
  private upTo(bytes: Uint8Array, cut: number): Uint8Array {
    return joinBytes(this.held, cut === bytes.length ? bytes : bytes.subarray(0, cut));
  }

  private async end(controller: Controller, last: Uint8Array | undefined, error: ProtocolError): Promise<void> {
    if (last !== undefined && last.length > 0) controller.enqueue(last);
    controller.close();
    this.options?.onProtocolError(error);
    await this.stop();
  }

  /** Handles one upstream chunk; true when something was enqueued or the stream ended. */
  private async relay(controller: Controller, bytes: Uint8Array): Promise<boolean> {
    const text = this.decode(bytes);
    this.boundary = -1;
    let oversized: ProtocolError | undefined;
    try {
      this.scan(text);
    } catch (error) {
      if (error !== STOP) {
        if (!(error instanceof ProtocolError)) throw error;
        oversized = error;
      }
    }
    if (this.invalid !== undefined) {
      await this.end(controller, this.upTo(bytes, byteOffset(bytes, text, this.invalidEnd)), this.invalid);
      return true;
    }
    const onFirstEvent = this.options?.onFirstEvent;
    if (this.first !== undefined && onFirstEvent !== undefined) {
      const event = this.first;
      this.heard = true;
      this.first = undefined;
      try {
        await onFirstEvent(event);
      } catch (error) {
        this.options?.onCancel();
        controller.error(error);
        await this.stop();
        return true;
      }
      if (this.stopped) return true;
    }
    const { boundary } = this;
    // Messages before an oversized one are whole and valid: they go out first; none of the oversized one does,
    // and the response ends cleanly, so the browser sees a stream cut short instead of resuming into it forever.
    if (oversized !== undefined) {
      const last = boundary < 0 ? undefined : this.upTo(bytes, byteOffset(bytes, text, boundary));
      await this.end(controller, last, oversized);
      return true;
    }
    if (boundary < 0) {
      this.held.push(bytes);
      this.heldLength += text.length;
      if (this.heldLength > this.maxMessageBytes) {
        const size = this.heldLength;
        await this.end(
          controller,
          undefined,
          new ProtocolError(`SSE message of ${size}+ bytes is over maxMessageBytes (${this.maxMessageBytes})`),
        );
        return true;
      }
      return false;
    }
    // The common case, a chunk of whole messages, goes on as the very array received; otherwise its bytes up to its
    // last boundary, never re-encoded, and a copy of the rest is held (so an idle stream does not keep the chunk).
    const cut = byteOffset(bytes, text, boundary);
    const out = this.upTo(bytes, cut);
    this.held = cut < bytes.length ? [bytes.slice(cut)] : [];
    this.heldLength = text.length - boundary;
    controller.enqueue(out);
    return true;
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
