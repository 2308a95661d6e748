import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { idleStreamHead, proxyStreamBytes } from './proxy-stream.js';

/*
 * The other side of the proxy bench, in its own process so the measured process runs only the proxy: a Kestrel
 * stand-in serving SSE, and the browser stand-in reading through the proxy. Driven over IPC by proxy.ts.
 */

export type PeerCommand =
  | { readonly cmd: 'stream'; readonly url: string }
  | { readonly cmd: 'open-idle'; readonly url: string; readonly count: number }
  | { readonly cmd: 'close-idle' };

export type PeerReply =
  | { readonly type: 'ready'; readonly upstream: string; readonly streamBytes: number; readonly events: number }
  | { readonly type: 'streamed'; readonly ms: number; readonly bytes: number; readonly chunks: number }
  | { readonly type: 'opened'; readonly count: number }
  /** `upstreamOpen`: upstream streams still open once the browser side closed (a proxy that forgot to stop them). */
  | { readonly type: 'closed'; readonly count: number; readonly upstreamOpen: number }
  | { readonly type: 'failed'; readonly message: string };

const EVENTS = Number(process.env.BENCH_PROXY_EVENTS ?? 100_000);
const WRITE_BYTES = 64 * 1024;
const stream = proxyStreamBytes(EVENTS);

function reply(message: PeerReply): void {
  process.send?.(message);
}

let openUpstream = 0;
const upstream = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  const runId = /^\/v1\/runs\/([^/]+)\/events/.exec(req.url ?? '')?.[1] ?? '';
  if (runId.startsWith('run_idle')) {
    openUpstream++;
    res.on('close', () => openUpstream--);
    res.write(idleStreamHead(runId));
    return; // stays open and silent until the client leaves
  }
  let offset = 0;
  const pump = () => {
    while (offset < stream.length) {
      const piece = stream.subarray(offset, offset + WRITE_BYTES);
      offset += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
});

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function readAll(url: string): Promise<{ bytes: number; chunks: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        let bytes = 0;
        let chunks = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          chunks++;
        });
        res.on('end', () => resolve({ bytes, chunks }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const idle: http.ClientRequest[] = [];

function openIdle(url: string, count: number): Promise<void> {
  const opened = Array.from(
    { length: count },
    (_, i) =>
      new Promise<void>((resolve, reject) => {
        const request = http.get(
          url.replace('RUN', `run_idle_${i}`),
          // A connection of its own each: a pooled socket the server closed meanwhile would reset.
          { agent: false, headers: { accept: 'text/event-stream' } },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`idle stream answered ${res.statusCode}`));
            res.once('data', () => resolve());
          },
        );
        request.on('error', reject);
        idle.push(request);
      }),
  );
  return Promise.all(opened).then(() => undefined);
}

process.on('message', (command: PeerCommand) => {
  const run = async (): Promise<PeerReply> => {
    switch (command.cmd) {
      case 'stream': {
        const started = performance.now();
        const read = await readAll(command.url);
        const ms = performance.now() - started;
        if (read.bytes !== stream.length) throw new Error(`relayed ${read.bytes} bytes of ${stream.length}`);
        return { type: 'streamed', ms, ...read };
      }
      case 'open-idle':
        await openIdle(command.url, command.count);
        return { type: 'opened', count: idle.length };
      case 'close-idle': {
        const count = idle.length;
        for (const request of idle.splice(0)) request.destroy();
        // The proxy hears the close, then stops its upstream request: give it a moment, bounded.
        for (let wait = 0; wait < 40 && openUpstream > 0; wait++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        return { type: 'closed', count, upstreamOpen: openUpstream };
      }
      default:
        return command satisfies never;
    }
  };
  run().then(reply, (error: Error) => reply({ type: 'failed', message: error.message }));
});

upstream.listen(0, '127.0.0.1', () => {
  const { port } = upstream.address() as AddressInfo;
  reply({ type: 'ready', upstream: `http://127.0.0.1:${port}`, streamBytes: stream.length, events: EVENTS });
});
