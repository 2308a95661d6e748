import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;

/** A port 127.0.0.1 has free right now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP address for the free-port probe');
  return address.port;
}

/** Polls `url` until it answers 200, or fails after READY_TIMEOUT_MS with what the server printed. */
async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output()}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (answered === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer ${url} within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * Serves the built example with `next start` on 127.0.0.1: the mock Kestrel behind the proxy route
 * (`KESTREL_MOCK=1`), the browser's origin allowed (`APP_ORIGIN`), no telemetry.
 */
export async function startNext(): Promise<{ url: string; close: () => Promise<void> }> {
  if (!existsSync(`${APP_DIR}.next/BUILD_ID`))
    throw new Error('The Next example is not built: run `pnpm --filter @kestrel/next-example build` first');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nextBin = fileURLToPath(new URL('../node_modules/next/dist/bin/next', import.meta.url));
  const child = spawn(process.execPath, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: APP_DIR,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', KESTREL_MOCK: '1', APP_ORIGIN: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const keep = (chunk: Buffer) => void (printed = (printed + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitUntilReady(url, child, () => printed);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    url,
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}
