import { build, stop as stopEsbuild } from 'esbuild';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, log, median, writePartResult } from '../harness.js';
import type { HostCommand, HostReply, ProxyName } from './proxy-host.js';
import type { PeerCommand, PeerReply } from './proxy-peer.js';

/*
 * The proxy in the path (issue 17 item 4). Four relays of the same 100k-event stream, each alone in a process of
 * its own (proxy-host.ts), as a server runs one proxy; proxy-peer.ts (another process) is Kestrel and the browser,
 * and times each stream. This process only drives them, in rotated order each round:
 * - `kestrel`: createKestrelProxy behind createNodeListener, validating every event (no `fetch` of the app's, so
 *   createNodeListener's native path: node:http both ways, no web stream);
 * - `kestrelNode`: the same with `fetch: nodeFetch` (an app's own `fetch`, so the web path, over node:http);
 * - `fetchPipe`: the same listener and `fetch`, body passed through unread (what the kit's plumbing costs alone);
 * - `rawPipe`: node:http request piped to the response (the cheapest relay Node has).
 * Then 200 idle streams are held open through each, and the heap they take in its process is read after GC.
 * Until 2026-12-02 the four shared one process: what one relay optimised or left on the heap moved the others'
 * figures (about 3.6 KB per idle stream either way, and the native path's throughput 0.39 of the raw pipe in a
 * full run against 0.64 alone).
 */
// A stream takes 20 to 100 ms: fifteen rounds cost about 6 s and steady the medians, which moved by ±0.07 over five.
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 15);
const WARMUP_STREAMS = Number(process.env.BENCH_PROXY_WARMUP ?? 10);
const IDLE_STREAMS = 200;
const IDLE_ROUNDS = 3;

const children: ChildProcess[] = [];
let stopping = false;
let scratch: string | undefined;

/**
 * proxy-host.ts and the packages it imports built into one plain module, as a server runs them (from a package's
 * `dist`, or its own bundle). Run through tsx instead, the source is transformed with esbuild's `keepNames` and
 * source maps on, which slowed the plain relays (the raw pipe 0.30 to 0.39 µs of CPU an event against 0.17 to 0.22
 * built, 2026-12-04) and left the kit's about as it was: a ratio no server would see. `BENCH_PROXY_SOURCE=1` runs
 * the source as before.
 */
async function builtHost(): Promise<string> {
  scratch = mkdtempSync(join(tmpdir(), 'kestrel-proxy-bench-'));
  const outfile = join(scratch, 'proxy-host.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./proxy-host.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  // Its service process would sit beside the proxies through the timed streams.
  await stopEsbuild();
  return outfile;
}

/** A child process driven over IPC, one question at a time: a TypeScript script beside this one, or a built one. */
function spawn<Command, Reply extends { readonly type: string }>(
  script: string,
  execArgv: readonly string[],
  env: Record<string, string>,
) {
  const built = script.endsWith('.mjs');
  const child = fork(built ? script : fileURLToPath(new URL(script, import.meta.url)), {
    execArgv: built ? [...execArgv] : ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  let pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  const first = new Promise<Reply>((resolve, reject) => (pending = { resolve, reject }));
  child.on('message', (reply: Reply) => pending?.resolve(reply));
  // A child that dies fails the part at once, instead of leaving a question unanswered forever.
  child.on('exit', (code, signal) => {
    if (!stopping) pending?.reject(new Error(`${script} exited (${signal ?? code}) with a question open`));
  });
  const ask = (command: Command): Promise<Reply> =>
    new Promise((resolve, reject) => {
      pending = {
        resolve: (reply) =>
          reply.type === 'failed' ? reject(new Error((reply as { message?: string }).message)) : resolve(reply),
        reject,
      };
      child.send(command as object);
    });
  return { first, ask };
}

async function main() {
  const peer = spawn<PeerCommand, PeerReply>('./proxy-peer.ts', [], {});
  const ready = await peer.first;
  check(ready.type === 'ready', 'the peer did not start');
  const { upstream, events, streamBytes } = ready;

  const names: ProxyName[] = ['kestrel', 'kestrelNode', 'fetchPipe', 'rawPipe'];
  const hosts = {} as Record<ProxyName, { url: string; ask: (command: HostCommand) => Promise<HostReply> }>;
  const hostScript = process.env.BENCH_PROXY_SOURCE === '1' ? './proxy-host.ts' : await builtHost();
  for (const name of names) {
    const host = spawn<HostCommand, HostReply>(hostScript, ['--expose-gc'], {
      BENCH_PROXY_NAME: name,
      BENCH_PROXY_UPSTREAM: upstream,
    });
    const listening = await host.first;
    check(listening.type === 'listening', `the ${name} proxy did not start`);
    hosts[name] = { url: listening.url, ask: host.ask };
  }
  const ask = peer.ask;

  type Name = ProxyName;
  const samples = Object.fromEntries(
    names.map((name) => [name, { ms: [] as number[], cpuUs: [] as number[], chunks: [] as number[] }]),
  ) as Record<Name, { ms: number[]; cpuUs: number[]; chunks: number[] }>;
  const path = '/v1/runs/run_big/events';
  /*
   * Warm-up, not counted (JIT, connection pools), and before any forced GC: a full GC among a process's first few
   * requests ends V8's in-object slack tracking early, and every later node:http response and upstream request
   * then takes a dictionary of properties (about 3.1 KB instead of 0.4; plain node:http does it too, 2026-12-02), a
   * state no server that was never told to collect garbage reaches. It added about 5 KB per idle stream to every relay.
   */
  for (let warm = 0; warm < WARMUP_STREAMS; warm++)
    for (const name of names) await ask({ cmd: 'stream', url: `${hosts[name].url}${path}` });
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      await hosts[name].ask({ cmd: 'mark' });
      const reply = await ask({ cmd: 'stream', url: `${hosts[name].url}${path}` });
      const used = await hosts[name].ask({ cmd: 'cpu' });
      check(reply.type === 'streamed' && used.type === 'cpu', 'the peer did not stream');
      samples[name].ms.push(reply.ms);
      samples[name].cpuUs.push(used.us);
      samples[name].chunks.push(reply.chunks);
    }
    log(
      `proxy round ${round + 1}/${ROUNDS}: ${names.map((n) => `${n} ${samples[n].ms.at(-1)!.toFixed(0)} ms`).join(', ')}`,
    );
  }
  const eventsPerSecond = (name: Name) => median(samples[name].ms.map((ms) => events / (ms / 1000)));
  const ratio = (a: Name, b: Name) => median(samples[a].ms.map((ms, i) => samples[b].ms[i]! / ms));

  // Idle streams: heap the proxy holds per open, silent stream, and what is left once they close.
  const heap = async (name: Name) => {
    const reply = await hosts[name].ask({ cmd: 'heap' });
    check(reply.type === 'heap', `the ${name} proxy did not read its heap`);
    return reply.bytes;
  };
  const idleHeap = async (name: Name) => {
    const before = await heap(name);
    await ask({ cmd: 'open-idle', url: `${hosts[name].url}/v1/runs/RUN/events`, count: IDLE_STREAMS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const open = await heap(name);
    const closed = await ask({ cmd: 'close-idle' });
    check(
      closed.type === 'closed' && closed.upstreamOpen === 0,
      `${name} left ${closed.type === 'closed' ? closed.upstreamOpen : '?'} upstream streams open`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await heap(name);
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
  stop();
}

function stop() {
  stopping = true;
  for (const child of children) child.kill();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
}

// The bench stops a part that runs too long with a signal: the built host goes with it.
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    stop();
    process.exit(1);
  });

main().catch((error) => {
  console.error(error);
  stop();
  process.exit(1);
});
