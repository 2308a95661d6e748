import type { IncomingMessage } from 'node:http';

/** How much of a body is read ahead of its reader; beyond it the socket is paused (backpressure). */
const HIGH_WATER_MARK = 64 * 1024;

export interface IncomingBodyOptions {
  /**
   * What cancelling the stream does: `discard` reads the rest and drops it (a request body: the client's request
   * goes on, its answer still to come), `destroy` closes the connection (an upstream answer nobody reads).
   */
  readonly onCancel: 'discard' | 'destroy';
  /** The error the reader hears when the connection closes before the body ended. */
  readonly cutShort: string;
}

/**
 * A `node:http` body (a request the server received, or an answer the client did) as a web stream that reads the
 * socket only as fast as its reader reads it, so a reader that stops early (a body over its limit) never makes the
 * rest pile up in memory. A connection closed before the end is an error, never a clean end.
 */
export function incomingBodyStream(message: IncomingMessage, options: IncomingBodyOptions): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // Its 'end' already came and went (someone else read it): waiting for it would wait forever.
        if (message.readableEnded) {
          finished = true;
          controller.error(new Error('The body was already read by someone else'));
          return;
        }
        message.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) message.pause();
        });
        message.on('end', () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        const fail = (error: Error) => {
          if (finished) return;
          finished = true;
          controller.error(error);
        };
        message.on('error', fail);
        // A peer that leaves mid-body: the reader must hear it, not wait for bytes that never come.
        message.on('close', () => fail(new Error(options.cutShort)));
      },
      pull() {
        message.resume();
      },
      cancel() {
        finished = true;
        switch (options.onCancel) {
          case 'discard':
            message.resume(); // the rest is read and dropped, not held
            return;
          case 'destroy':
            message.destroy();
            return;
          default:
            return options.onCancel satisfies never;
        }
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_MARK }),
  );
}
