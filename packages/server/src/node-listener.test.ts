import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';

const open: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const CHUNK = new Uint8Array(64 * 1024);
const TOTAL_CHUNKS = 400; // 25.6 MB if nothing held it back

describe('createNodeListener', () => {
  it('reads a response body only as fast as the client takes it (backpressure), so a slow reader is not buffered in memory', async () => {
    let pulled = 0;
    const server = await listenOnLoopback(
      createNodeListener(
        () =>
          new Response(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                pulled += 1;
                if (pulled >= TOTAL_CHUNKS) controller.close();
                else controller.enqueue(CHUNK);
              },
            }),
            { headers: { 'content-type': 'application/octet-stream' } },
          ),
      ),
    );
    open.push(server);
    // A client that receives the headers and then does not read: its socket buffers fill, and then they are full.
    const paused = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${server.url}/`, (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whilePaused = pulled;
    paused.destroy();
    // Loopback socket buffers hold a few MB; without backpressure the whole 25.6 MB body is pulled at once.
    expect(whilePaused).toBeLessThan(TOTAL_CHUNKS / 2);
  });
});
