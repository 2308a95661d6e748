import type { ProtocolError, RunEvent } from '@kestrel/core';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { cutShort } from './cut-short.js';
import { EventStreamChecker, reportProtocolError, type ChunkVerdict } from './event-stream-checker.js';
import { watchForStall } from './stall-watch.js';

export interface NodeEventRelayOptions {
  /** Longest message (or unfinished line) read from upstream; a longer one ends the response like a protocol error. */
  readonly maxMessageBytes: number;
  /** Told once when the upstream breaks the protocol, after the offending message went out and the response ended. */
  readonly onProtocolError: (error: ProtocolError) => void;
  /** Awaited with the first valid event before any byte of the run goes out; when it rejects, the browser is cut. */
  readonly onFirstEvent?: (event: RunEvent) => Promise<void>;
  /** A browser that takes nothing for this long while events wait for it is cut off, and the upstream with it. */
  readonly stalledReaderTimeoutMs: number;
}

/**
 * `open` while it forwards; `hearing` while `onFirstEvent` is awaited (what the upstream does meanwhile waits in the
 * backlog); `over` once the upstream ended, broke the protocol or dropped, or the browser left.
 */
type RelayState = 'open' | 'hearing' | 'over';

/** One listener for every stream's upstream 'error': an idle stream keeps no closure of its own for it. */
const ignore = () => undefined;

/** The most written to the browser at once: a `drain` then means a slice went out (see `send`). */
const SLICE = 256 * 1024;

/** What the upstream did while the relay was hearing: a chunk, its end, or its close. */
type Pending = Buffer | 'end' | 'close';

/**
 * The `node:http` relay of one upstream event stream to the browser's response: the same check as
 * validatedEventStream (one EventStreamChecker), each upstream chunk written as received with `res.write`, no web
 * stream in between. Backpressure: the upstream is paused while the browser's socket is full. The browser leaving
 * destroys the upstream request; the upstream dropping cuts the browser's connection (it resumes); a clean upstream
 * end ends the response. No terminal event is ever invented.
 */
class NodeEventRelay {
  private readonly checker: EventStreamChecker;
  private state: RelayState = 'open';
  private onFirstEvent: ((event: RunEvent) => Promise<void>) | undefined;
  private onProtocolError: ((error: ProtocolError) => void) | undefined;
  private backlog: Pending[] = [];
  /** Checked bytes waiting for the browser's `drain`, in order (the rest of a large message, then what followed). */
  private outbox: Uint8Array[] = [];
  /** A write was refused and its `drain` has not come: HTTP/2's response has no `writableNeedDrain` to ask. */
  private draining = false;
  /** While draining: stops the watch that bounds the wait (a browser reading nothing must not hold a Kestrel stream). */
  private stopStallWatch: (() => void) | undefined;
  private readonly stallMs: number;

  constructor(
    private readonly upstreamRequest: ClientRequest,
    private readonly upstream: IncomingMessage,
    private readonly res: ServerResponse,
    options: NodeEventRelayOptions,
  ) {
    this.onFirstEvent = options.onFirstEvent;
    this.onProtocolError = options.onProtocolError;
    this.stallMs = options.stalledReaderTimeoutMs;
    this.checker = new EventStreamChecker(options.maxMessageBytes, options.onFirstEvent !== undefined);
    upstream.on('data', (chunk: Buffer) => this.chunk(chunk));
    upstream.on('end', () => this.upstreamEnded());
    // A reset is heard as the 'close' without an 'end' below; the listener only keeps it from being unhandled.
    upstream.on('error', ignore);
    upstream.on('close', () => this.upstreamClosed());
    res.on('close', () => this.browserLeft());
    // HTTP/2: a browser that resets a stream whose window is full is heard only as the request's 'aborted' (the
    // response's 'close' waits for writes that will never drain). `on`, not `once`: it comes at most once, and
    // browserLeft runs once anyway, while `once` would keep a wrapper, its state and a bound function per stream.
    // (A response an app built or wrapped itself may have no `req`: then only its 'close' is heard, as before.)
    (res.req as IncomingMessage | undefined)?.on('aborted', () => this.browserLeft());
  }

  private chunk(chunk: Buffer): void {
    if (this.state === 'hearing') return void this.backlog.push(chunk);
    if (this.state !== 'open') return;
    let verdict: ChunkVerdict;
    let first: RunEvent | undefined;
    try {
      // A plain view, never the Buffer: what the checker copies must be a copy (Buffer#slice is a view).
      verdict = this.checker.check(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      first = this.checker.takeFirst();
    } catch {
      // Only a fault of the relay itself lands here: the browser sees a dropped connection, the server goes on.
      return this.drop();
    }
    const hear = this.onFirstEvent;
    if (first === undefined || hear === undefined) return this.act(verdict);
    this.onFirstEvent = undefined;
    this.state = 'hearing';
    this.upstream.pause();
    hear(first).then(
      () => {
        if (this.state !== 'hearing') return;
        this.state = 'open';
        this.act(verdict);
        // The upstream's end (Node emits it even while paused) or more, in the order it came.
        for (const pending of this.backlog.splice(0)) {
          if (pending === 'end') this.upstreamEnded();
          else if (pending === 'close') this.upstreamClosed();
          else this.chunk(pending);
        }
        if (this.state === 'open' && !this.draining) this.upstream.resume();
      },
      () => {
        if (this.state === 'hearing') this.drop();
      },
    );
  }

  private act(verdict: ChunkVerdict): void {
    switch (verdict.kind) {
      case 'hold':
        return;
      case 'forward':
        // No copy: on HTTP/1.1 Node corks a response's writes until the next tick, so both go out in one socket
        // write (two chunks of the chunked body); on HTTP/2 they are two DATA frames.
        if (verdict.held !== undefined) this.send(verdict.held);
        return this.send(verdict.bytes);
      case 'end': {
        this.flushOutbox();
        if (verdict.bytes !== undefined && verdict.bytes.length > 0) this.res.write(verdict.bytes);
        this.res.end();
        const report = this.onProtocolError;
        this.finish();
        this.upstreamRequest.destroy();
        reportProtocolError(report, verdict.error);
        return;
      }
      default:
        return verdict satisfies never;
    }
  }

  /**
   * Writes `bytes` in slices of at most `SLICE` bytes. Backpressure: a slow browser pauses the upstream (its socket
   * then fills), never the proxy's memory; what is left of the bytes waits in the outbox for the next `drain`. In
   * slices, so each `drain` comes once a slice went out: the stall bound measures a browser that takes nothing, not
   * the time a large message (a 10 MB terminal event) takes a slow but steady reader.
   */
  private send(bytes: Uint8Array): void {
    if (this.draining) return void this.outbox.push(bytes);
    for (let at = 0; at < bytes.length;) {
      const end = Math.min(at + SLICE, bytes.length);
      const taken = this.res.write(at === 0 && end === bytes.length ? bytes : bytes.subarray(at, end));
      at = end;
      if (!taken) {
        if (at < bytes.length) this.outbox.unshift(bytes.subarray(at));
        return this.waitForDrain();
      }
    }
  }

  private waitForDrain(): void {
    this.upstream.pause();
    this.draining = true;
    // The browser's client gives up on a stream silent for 45 s and resumes on a new one: a browser that took
    // nothing for the bound is dead weight holding a Kestrel stream open.
    this.stopStallWatch?.();
    this.stopStallWatch = watchForStall(this.res, this.stallMs, () => this.browserLeft());
    this.res.once('drain', () => {
      this.stopStallWatch?.();
      this.draining = false;
      if (this.state !== 'open') return;
      while (!this.draining && this.outbox.length > 0) this.send(this.outbox.shift()!);
      if (!this.draining) this.upstream.resume();
    });
  }

  /** Before the response ends: what still waits for a `drain` goes first (Node buffers it; the end follows it). */
  private flushOutbox(): void {
    for (const bytes of this.outbox.splice(0)) this.res.write(bytes);
  }

  /** Lets go of everything the relay holds: the stream is over. */
  private finish(): void {
    this.stopStallWatch?.();
    this.state = 'over';
    this.backlog = [];
    this.outbox = [];
    this.checker.release();
    this.onFirstEvent = undefined;
    this.onProtocolError = undefined;
  }

  private upstreamEnded(): void {
    if (this.state === 'hearing') return void this.backlog.push('end');
    if (this.state !== 'open') return;
    this.flushOutbox();
    this.finish();
    // A message cut off by the end was held, never forwarded: the browser sees the stream end early.
    this.res.end();
  }

  private upstreamClosed(): void {
    if (this.state === 'hearing') return void this.backlog.push('close');
    if (this.state !== 'open') return;
    this.drop();
  }

  private browserLeft(): void {
    if (this.state === 'over') return;
    this.finish();
    this.upstreamRequest.destroy();
    // What is still queued for the browser goes too (on HTTP/2 it would wait for a window that never opens).
    this.res.destroy();
  }

  /** Cuts the browser's connection (it resumes) and stops the upstream. */
  private drop(): void {
    this.finish();
    this.upstreamRequest.destroy();
    // A turn first: Node corks response writes until the next tick, and destroying now would discard events
    // that were already written.
    setImmediate(() => cutShort(this.res));
  }
}

/** Relays `upstream` (an event stream, headers already checked) to `res`, whose headers are written already. */
export function relayNodeEventStream(
  upstreamRequest: ClientRequest,
  upstream: IncomingMessage,
  res: ServerResponse,
  options: NodeEventRelayOptions,
): void {
  new NodeEventRelay(upstreamRequest, upstream, res, options);
}
