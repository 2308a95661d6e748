import { createKestrelProxy } from '@kestrel/server';
import { createNodeListener, nodeFetch } from '@kestrel/server/node';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * One proxy of the proxy bench, alone in a process of its own, as a server runs one proxy: what another relay
 * compiled, optimised or left on the heap cannot move its figures. proxy-part.ts starts one per contender and asks
 * over IPC for its CPU time and its heap after GC; the peer (proxy-peer.ts) times the streams.
 */

/** The relays the part compares (see proxy-part.ts). */
export type ProxyName = 'kestrel' | 'kestrelNode' | 'fetchPipe' | 'rawPipe';

export type HostCommand = { readonly cmd: 'cpu' } | { readonly cmd: 'heap' } | { readonly cmd: 'mark' };

export type HostReply =
  | { readonly type: 'listening'; readonly url: string }
  | { readonly type: 'cpu'; readonly us: number }
  | { readonly type: 'heap'; readonly bytes: number }
  | { readonly type: 'marked' };

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('a proxy host needs node --expose-gc');
const name = process.env.BENCH_PROXY_NAME as ProxyName;
const upstream = process.env.BENCH_PROXY_UPSTREAM!;

function handlerFor(relay: ProxyName): http.RequestListener {
  switch (relay) {
    case 'kestrel':
      // No `fetch` of the app's: createNodeListener's native path (node:http both ways, no web stream).
      return createNodeListener(createKestrelProxy({ upstream }));
    case 'kestrelNode':
      // An app's own `fetch`: the web path, over node:http.
      return createNodeListener(createKestrelProxy({ upstream, fetch: nodeFetch }));
    case 'fetchPipe':
      // The same listener and `fetch`, the body passed through unread: what the kit's plumbing costs alone.
      return createNodeListener(async (request) => {
        const answer = await fetch(`${upstream}${new URL(request.url).pathname}`, {
          headers: { accept: 'text/event-stream' },
          signal: request.signal,
        });
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      });
    case 'rawPipe': {
      // The cheapest relay Node has: the upstream response piped to the browser's.
      const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
      return (req, res) => {
        const out = http.get(
          `${upstream}${req.url ?? '/'}`,
          { agent, headers: { accept: 'text/event-stream' } },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        res.on('close', () => out.destroy());
      };
    }
    default:
      return relay satisfies never;
  }
}

const reply = (message: HostReply) => process.send?.(message);
let cpuMark = process.cpuUsage();

process.on('message', (command: HostCommand) => {
  switch (command.cmd) {
    case 'mark':
      // No collection forced here: a server never forces one, and a full GC before each stream shrank V8's young
      // generation, so every relay that allocates per chunk paid it again in scavenges (the kit's native path 0.64
      // µs of CPU an event with it against 0.37 without, the raw pipe 0.21 against 0.17; 2026-12-04).
      cpuMark = process.cpuUsage();
      return reply({ type: 'marked' });
    case 'cpu': {
      // CPU since the last `mark` command: the stream the peer just read through this proxy.
      const used = process.cpuUsage(cpuMark);
      return reply({ type: 'cpu', us: used.user + used.system });
    }
    case 'heap':
      gc();
      gc();
      return reply({ type: 'heap', bytes: process.memoryUsage().heapUsed });
    default:
      return command satisfies never;
  }
});

const server = http.createServer(handlerFor(name));
server.listen(0, '127.0.0.1', () =>
  reply({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
);
process.on('disconnect', () => process.exit(0));
