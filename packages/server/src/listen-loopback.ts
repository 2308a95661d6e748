import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server bound to 127.0.0.1, as {@link listenOnLoopback} returns it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Stops accepting, cuts open connections (event streams never end on their own) and resolves once closed. */
  close(): Promise<void>;
}

/**
 * Serves a `node:http` listener on 127.0.0.1, on `port` or a free one.
 *
 * @example
 * const { url, close } = await listenOnLoopback(createNodeListener(handler));
 */
export async function listenOnLoopback(listener: RequestListener, port = 0): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
