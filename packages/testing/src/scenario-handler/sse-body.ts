import { encodeSSEComment, encodeSSEEvent } from '@kestrel/core';
import type { WireEvent } from '../event-factory.js';
import type { ConnectionEnd, ConnectionSink } from './play-connection.js';
import { sleep } from './sleep.js';

/** The event framed as usual but with data that is not JSON, so a client must name the seq it could not read. */
function malformedSSE(event: WireEvent): string {
  return `event: ${event.type}\nid: ${event.seq}\ndata: {"type":${JSON.stringify(event.type)},"seq":${event.seq},\n\n`;
}

/** Why reading a dropped stream fails: the same error class fetch uses for a network failure. */
export function droppedConnectionError(): TypeError {
  return new TypeError('network error: the mock Kestrel dropped the connection');
}

/** How many unread chunks may queue up before the player waits for the reader. */
const HIGH_WATER = 64;

export interface SSEBodyOptions {
  readonly keepAliveMs: number;
  /** Aborted when the client cancels the body (it went away). */
  readonly abort: AbortController;
  readonly play: (sink: ConnectionSink) => Promise<ConnectionEnd>;
  readonly onDone: () => void;
}

/**
 * A `text/event-stream` body driven by a connection player. A drop errors the stream only after the consumer
 * has read everything written before it, so no event is lost to the fault that follows it.
 */
export function createSSEBody(options: SSEBodyOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const signal = options.abort.signal;
  const pulled = new Set<() => void>();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const sink: ConnectionSink = {
    silent: false,
    event: (event, malformed) => write(malformed ? malformedSSE(event) : encodeSSEEvent(event)),
    raw: (text) => write(text),
    ready: async () => {
      if ((controller.desiredSize ?? 1) < -HIGH_WATER) await drained();
    },
  };
  function write(text: string) {
    if (open && !signal.aborted) controller.enqueue(encoder.encode(text));
  }
  async function drained() {
    while (!signal.aborted && (controller.desiredSize ?? 1) < 1) {
      await sleep(Infinity, signal, (wake) => {
        pulled.add(wake);
        return () => pulled.delete(wake);
      });
    }
  }
  async function run() {
    const keepAlive = setInterval(() => {
      if (!sink.silent) write(encodeSSEComment());
    }, options.keepAliveMs);
    try {
      const end = await options.play(sink);
      if (end === 'drop') {
        await drained();
        if (open) controller.error(droppedConnectionError());
      } else if (open) {
        controller.close();
      }
    } catch (error) {
      if (open) controller.error(error);
    } finally {
      open = false;
      clearInterval(keepAlive);
      options.onDone();
    }
  }
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      void run();
    },
    pull() {
      for (const wake of [...pulled]) wake();
    },
    cancel() {
      open = false;
      options.abort.abort();
    },
  });
}
