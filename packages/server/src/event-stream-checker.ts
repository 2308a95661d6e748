import { ProtocolError, parseSSEMessage, type RunEvent, type SSEMessage } from '@kestrel/core';
import { createSSEParser, fastAcceptMessages } from '@kestrel/core/internal';

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

/** `pieces` as one array (the piece itself when there is one). */
function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  let size = 0;
  for (const piece of pieces) size += piece.length;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

/**
 * A copy of `bytes` in an array of its own: what a stream holds must not keep the whole chunk (or the socket's
 * buffer a `node:http` chunk is a view of) alive. Never `Buffer#slice`, which is a view.
 */
const copyOf = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes);

/**
 * Tells `report` (the app's `onProtocolError`, through the proxy) about the error that ended a stream. The stream is
 * over either way: a reporter that throws is logged, never left to fail the relay (or, on Node, the process).
 */
export function reportProtocolError(report: ((error: ProtocolError) => void) | undefined, error: ProtocolError): void {
  try {
    report?.(error);
  } catch (thrown) {
    console.error('[kestrel proxy] onProtocolError threw', thrown);
  }
}

/**
 * What to do with one upstream chunk: nothing yet (`hold`, it ends inside a message), send `held` (when any) then
 * `bytes` on, or send `bytes` (when any) as the last thing and end the response because of `error`.
 */
export type ChunkVerdict =
  | { readonly kind: 'hold' }
  /**
   * `held`: what earlier chunks left (the start of the message this chunk completes, as received); `bytes`: the
   * chunk's own bytes up to its last boundary, the very array received when the chunk ends on one. Two pieces, not
   * one joined copy: joining copies nearly every chunk (an upstream's chunks rarely end on a boundary), and on the
   * proxy bench that cost the native relay about 0.15 of its time (2026-12-03). A relay that must hand on whole
   * messages per piece joins them (forwardedBytes).
   */
  | { readonly kind: 'forward'; readonly held: Uint8Array | undefined; readonly bytes: Uint8Array }
  | { readonly kind: 'end'; readonly bytes: Uint8Array | undefined; readonly error: ProtocolError };

const HOLD: ChunkVerdict = { kind: 'hold' };

/** A `forward` verdict's bytes in one array, whole messages only (a copy when something was held). */
export function forwardedBytes(verdict: Extract<ChunkVerdict, { kind: 'forward' }>): Uint8Array {
  return verdict.held === undefined ? verdict.bytes : concat([verdict.held, verdict.bytes]);
}

/**
 * The check of one upstream event stream, a chunk at a time, shared by every relay of it (the web stream the
 * handler answers with, and the `node:http` one of `createNodeListener`): it reads each chunk's messages, most in
 * place (fastAcceptMessages, a run at a time, no JSON.parse), the rest through the parser and parseSSEMessage, and
 * says which bytes go on. A class, so an open stream holds one object of fields (its methods are shared), not a
 * closure per step: with hundreds of idle streams that counts.
 */
export class EventStreamChecker {
  /** The last chunk's unfinished UTF-8 character (at most 3 bytes), decoded with the next chunk. */
  private partial: Uint8Array | undefined;
  /** Made on first use: a stream of common events read in place never needs it. */
  private feed: ((text: string) => void) | undefined;
  private settled = false;
  /** The first event, until the relay took it (see `takeFirst`). */
  private first: RunEvent | undefined;
  private heard: boolean;
  private atStart = true;
  /** Bytes received but not forwarded yet (the start of a message no chunk has completed so far), as received. */
  private held: Uint8Array[] = [];
  /** Their length in bytes, what maxMessageBytes bounds (the parser's own count, in characters, is never more). */
  private heldLength = 0;
  /** While one chunk is fed: the last boundary in its text, and its first invalid message with where it ends. */
  private boundary = -1;
  /** Where the piece of text the parser is fed starts in the chunk's text (its boundaries are counted from there). */
  private offset = 0;
  /** The parser holds the start of a message: it reads on to the next blank line. */
  private parserBusy = false;
  private invalid: ProtocolError | undefined;
  /** Where the bytes that go out end: after the invalid message, or before a block that must not go out at all. */
  private invalidEnd = -1;
  /** The invalid block is one that must not reach the browser even as the last thing (see `noData`). */
  private withheld = false;

  /**
   * @param maxMessageBytes longest message (or unfinished line) read; a longer one ends the stream like a protocol error
   * @param wantsFirst the relay needs the first event as an object (`takeFirst`) before it forwards it
   */
  constructor(
    private readonly maxMessageBytes: number,
    wantsFirst: boolean,
  ) {
    this.heard = !wantsFirst;
  }

  /** The first valid event, once, after the chunk that completed it was checked; the relay acts on it first. */
  takeFirst(): RunEvent | undefined {
    const { first } = this;
    if (first === undefined) return undefined;
    this.heard = true;
    this.first = undefined;
    return first;
  }

  /** Checks one upstream chunk, and says what of it (and of what was held before it) goes on. */
  check(bytes: Uint8Array): ChunkVerdict {
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
      // Before a withheld block that started in an earlier chunk: what was held is its start, so nothing goes out.
      const last = this.invalidEnd < 0 ? undefined : this.upTo(bytes, byteOffset(bytes, text, this.invalidEnd));
      return { kind: 'end', bytes: last, error: this.invalid };
    }
    const { boundary } = this;
    // Messages before an oversized one are whole and valid: they go out first; none of the oversized one does,
    // and the response ends cleanly, so the browser sees a stream cut short instead of resuming into it forever.
    if (oversized !== undefined) {
      const last = boundary < 0 ? undefined : this.upTo(bytes, byteOffset(bytes, text, boundary));
      return { kind: 'end', bytes: last, error: oversized };
    }
    if (boundary < 0) {
      this.held.push(bytes.byteLength === bytes.buffer.byteLength ? bytes : copyOf(bytes));
      // Bytes, as the limit says: counted in characters, a message of CJK text could hold three times as much.
      this.heldLength += bytes.byteLength;
      if (this.heldLength <= this.maxMessageBytes) return HOLD;
      const error = new ProtocolError(
        `SSE message of ${this.heldLength}+ bytes is over maxMessageBytes (${this.maxMessageBytes})`,
      );
      return { kind: 'end', bytes: undefined, error };
    }
    // The common case, a chunk of whole messages, goes on as the very array received; otherwise its bytes up to its
    // last boundary, never re-encoded, and a copy of the rest is held (so an idle stream does not keep the chunk).
    const cut = byteOffset(bytes, text, boundary);
    const { held } = this;
    const out = cut === bytes.length ? bytes : bytes.subarray(0, cut);
    this.held = cut < bytes.length ? [copyOf(bytes.subarray(cut))] : [];
    this.heldLength = bytes.length - cut;
    return { kind: 'forward', held: held.length === 0 ? undefined : concat(held), bytes: out };
  }

  /** Lets go of everything held: the stream is over. */
  release(): void {
    this.held = [];
    this.partial = undefined;
    this.feed = undefined;
    this.first = undefined;
  }

  private message(message: SSEMessage): void {
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
   * A block with an `id:` but no data: no event, so nothing the browser's client would check, but an `EventSource`
   * would take the id as its last event ID and resume from there, past events it never got (the protocol's ids are
   * the events' seqs). It ends the stream before it: the block itself never goes out. A block of `retry:` or
   * `event:` alone is standard framing that moves no id, and goes on like a comment.
   */
  private noData(id: string | undefined): void {
    if (id === undefined || this.invalid !== undefined) return;
    this.invalid = new ProtocolError(`an SSE block with id "${id.slice(0, 32)}" but no data: not an event`);
    this.withheld = true;
  }

  private parser(): (text: string) => void {
    // Each message is checked as the parser completes it: no list of messages per chunk.
    this.feed ??= createSSEParser(
      (message) => this.message(message),
      undefined,
      this.maxMessageBytes,
      (at) => {
        const index = this.offset + at;
        if (this.invalid === undefined) {
          this.boundary = index;
          return;
        }
        // The invalid message is whole: it goes out as the last one, and nothing after it is read. A withheld block
        // stops at the boundary before it (-1 when it began in an earlier chunk: then nothing more goes out).
        this.invalidEnd = this.withheld ? this.boundary : index;
        throw STOP;
      },
      (id) => this.noData(id),
    );
    return this.feed;
  }

  /**
   * Checks every message of one chunk's text. Most are read in place (fastAcceptMessages, a run at a time, no
   * JSON.parse); one it cannot vouch for, and anything the parser is in the middle of, goes through the parser and
   * parseSSEMessage a blank line at a time, which alone reports what is wrong. The first event (for takeFirst) and
   * anything after run.completed always take the parser's way. Two refused in a row, and the rest of the chunk goes
   * to the parser in one piece: an upstream that frames its events otherwise pays two tries a chunk, not one a
   * message.
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
        const end = this.underLimit(text, at, fastAcceptMessages(text, at));
        if (end > at) {
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
   * Where the messages of a run read in place from `at` to `end` (-1: none) stop being under maxMessageBytes: `end`
   * when the whole run is, else the end of the last message before one over it (`at` when the first is). Each
   * message of a run ends at the first blank line after its start (none holds a line break of its own).
   */
  private underLimit(text: string, at: number, end: number): number {
    if (end - at <= this.maxMessageBytes) return Math.max(end, at);
    let reached = at;
    while (reached < end) {
      const next = text.indexOf('\n\n', reached) + 2;
      if (next - reached > this.maxMessageBytes) break;
      reached = next;
    }
    return reached;
  }

  /**
   * Feeds `text[from, to)` to the parser. It is between messages again when its last boundary is the end: always
   * after text that ends in a blank line (LF LF), whatever came before. (A CR ending the text leaves it waiting to
   * skip an LF that would open the next text, which is then a blank line outside any message: nothing to skip.)
   */
  private parse(text: string, from: number, to: number): void {
    this.offset = from;
    this.parser()(from === 0 && to === text.length ? text : text.slice(from, to));
    this.parserBusy = this.boundary !== to;
  }

  private decode(bytes: Uint8Array): string {
    const whole = this.partial === undefined ? bytes : concat([this.partial, bytes]);
    const cut = completeUtf8(whole);
    this.partial = cut < whole.length ? copyOf(whole.subarray(cut)) : undefined;
    const text = decoder.decode(cut < whole.length ? whole.subarray(0, cut) : whole);
    if (!this.atStart || text === '') return text;
    this.atStart = false;
    // Only to parse: the browser's decoder drops it too.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /** What was held, then the chunk's own bytes up to byte `cut`, in one array. */
  private upTo(bytes: Uint8Array, cut: number): Uint8Array {
    return concat([...this.held, cut === bytes.length ? bytes : bytes.subarray(0, cut)]);
  }
}
