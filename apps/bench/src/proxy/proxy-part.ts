import { createKestrelProxy } from '@kestrel/server';
import { createNodeListener, nodeFetch } from '@kestrel/server/node';
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { check, log, median, writePartResult } from '../harness.js';
import type { PeerCommand, PeerReply } from './proxy-peer.js';

/*
 * The proxy in the path (issue 17 item 4). This process runs only proxies; proxy-peer.ts (another process) is
 * Kestrel and the browser. Four proxies relay the same 100k-event stream, in rotated order each round:
 * - `kestrel`: createKestrelProxy behind createNodeListener, validating every event (no `fetch` of the app's, so
 *   createNodeListener's native path: node:http both ways, no web stream);
 * - `kestrelNode`: the same with `fetch: nodeFetch` (an app's own `fetch`, so the web path, over node:http);
 * - `fetchPipe`: the same listener and `fetch`, body passed through unread (what the kit's plumbing costs alone);
 * - `rawPipe`: node:http request piped to the response (the cheapest relay Node has).
 * Then 200 idle streams are held open through createKestrelProxy, and the heap they take is read after GC.
 */
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 5);
const IDLE_STREAMS = 200;
const IDLE_ROUNDS = 3;

const gc = (globalThis as { gc?: () => void }).gc;
check(gc !== undefined, 'the proxy part needs node --expose-gc');

const peer: ChildProcess = fork(fileURLToPath(new URL('./proxy-peer.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
let pending: ((reply: PeerReply) => void) | undefined;
const firstReply = new Promise<PeerReply>((resolve) => (pending = resolve));
peer.on('message', (reply: PeerReply) => pending?.(reply));
function ask(command: PeerCommand): Promise<PeerReply> {
  return new Promise((resolve, reject) => {
    pending = (reply) => (reply.type === 'failed' ? reject(new Error(reply.message)) : resolve(reply));
    peer.send(command);
  });
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

async function main() {
  const ready = await firstReply;
  check(ready.type === 'ready', 'the peer did not start');
  const { upstream, events, streamBytes } = ready;

  const kestrel = await listen(createNodeListener(createKestrelProxy({ upstream })));
  const kestrelNode = await listen(createNodeListener(createKestrelProxy({ upstream, fetch: nodeFetch })));
  const fetchPipe = await listen(
    createNodeListener(async (request) => {
      const answer = await fetch(`${upstream}${new URL(request.url).pathname}`, {
        headers: { accept: 'text/event-stream' },
        signal: request.signal,
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }),
  );
  const rawAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const rawPipe = await listen((req, res) => {
    const out = http.get(
      `${upstream}${req.url ?? '/'}`,
      { agent: rawAgent, headers: { accept: 'text/event-stream' } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    res.on('close', () => out.destroy());
  });

  const contenders = { kestrel, kestrelNode, fetchPipe, rawPipe } as const;
  type Name = keyof typeof contenders;
  const names = Object.keys(contenders) as Name[];
  const samples = Object.fromEntries(
    names.map((name) => [name, { ms: [] as number[], cpuUs: [] as number[], chunks: [] as number[] }]),
  ) as Record<Name, { ms: number[]; cpuUs: number[]; chunks: number[] }>;
  const path = '/v1/runs/run_big/events';
  // One warm-up each (JIT, connection pools), not counted.
  for (const name of names) await ask({ cmd: 'stream', url: `${contenders[name].url}${path}` });
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      gc!();
      const cpu = process.cpuUsage();
      const reply = await ask({ cmd: 'stream', url: `${contenders[name].url}${path}` });
      const used = process.cpuUsage(cpu);
      check(reply.type === 'streamed', 'the peer did not stream');
      samples[name].ms.push(reply.ms);
      samples[name].cpuUs.push(used.user + used.system);
      samples[name].chunks.push(reply.chunks);
    }
    log(
      `proxy round ${round + 1}/${ROUNDS}: ${names.map((n) => `${n} ${samples[n].ms.at(-1)!.toFixed(0)} ms`).join(', ')}`,
    );
  }
  const eventsPerSecond = (name: Name) => median(samples[name].ms.map((ms) => events / (ms / 1000)));
  const ratio = (a: Name, b: Name) => median(samples[a].ms.map((ms, i) => samples[b].ms[i]! / ms));

  // Idle streams: heap the proxy holds per open, silent stream, and what is left once they close.
  const heap = () => {
    gc!();
    gc!();
    return process.memoryUsage().heapUsed;
  };
  const idleHeap = async (name: Name) => {
    const before = heap();
    await ask({ cmd: 'open-idle', url: `${contenders[name].url}/v1/runs/RUN/events`, count: IDLE_STREAMS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const open = heap();
    const closed = await ask({ cmd: 'close-idle' });
    check(
      closed.type === 'closed' && closed.upstreamOpen === 0,
      `${name} left ${closed.type === 'closed' ? closed.upstreamOpen : '?'} upstream streams open`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = heap();
    return {
      perStreamKB: (open - before) / IDLE_STREAMS / 1024,
      retainedPerStreamKB: (after - before) / IDLE_STREAMS / 1024,
    };
  };
  // Once each first, not counted: pools, lazily built code and caches grow on the first burst of connections.
  for (const name of names) await idleHeap(name);
  type IdleSample = Awaited<ReturnType<typeof idleHeap>>;
  const idleSamples = Object.fromEntries(names.map((name) => [name, [] as IdleSample[]])) as Record<Name, IdleSample[]>;
  for (let round = 0; round < IDLE_ROUNDS; round++)
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      idleSamples[name].push(await idleHeap(name));
    }
  const idle = Object.fromEntries(
    names.map((name) => [
      name,
      {
        perStreamKB: median(idleSamples[name].map((sample) => sample.perStreamKB)),
        retainedPerStreamKB: median(idleSamples[name].map((sample) => sample.retainedPerStreamKB)),
      },
    ]),
  ) as Record<Name, IdleSample>;

  const result = {
    events,
    streamBytes,
    upstreamWriteBytes: 64 * 1024,
    rounds: ROUNDS,
    eventsPerSecond: {
      kestrel: eventsPerSecond('kestrel'),
      kestrelNode: eventsPerSecond('kestrelNode'),
      fetchPipe: eventsPerSecond('fetchPipe'),
      rawPipe: eventsPerSecond('rawPipe'),
    },
    ratio: {
      vsRawPipe: ratio('kestrel', 'rawPipe'),
      vsFetchPipe: ratio('kestrel', 'fetchPipe'),
      nodeFetchVsRawPipe: ratio('kestrelNode', 'rawPipe'),
    },
    cpuUsPerEvent: Object.fromEntries(names.map((n) => [n, median(samples[n].cpuUs) / events])) as Record<Name, number>,
    chunksReceived: Object.fromEntries(names.map((n) => [n, median(samples[n].chunks)])) as Record<Name, number>,
    idleStreams: IDLE_STREAMS,
    idle,
  };
  writePartResult(result);
  for (const { server } of Object.values(contenders)) server.close();
  rawAgent.destroy();
  peer.kill();
}

main().catch((error) => {
  console.error(error);
  peer.kill();
  process.exit(1);
});
