/*
 * Records one run of the demo, as a person would in the app, and saves it where Storybook's recordings atlas reads
 * it: the demo's own mock backend (apps/demo/server/demo-backend.ts) on 127.0.0.1, the real run client with the
 * demo's heartbeat, and `recordRun`. Run it again after a protocol change: `pnpm exec tsx scripts/record-demo-run.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRunClient, recordRun } from '@kestrel/core';
import { createNodeListener } from '@kestrel/server/node';
import { getScenario } from '@kestrel/testing';
import { createDemoBackend } from '../apps/demo/server/demo-backend.js';
import { listenOnLoopback } from '../packages/server/src/listen-loopback.js';

const scenario = getScenario('dropped-mid-stream');
const target = join(
  import.meta.dirname,
  '../packages/react/src/components/stories/recordings/demo-dropped-mid-stream.kestrel-recording.json',
);

const backend = createDemoBackend({});
const server = await listenOnLoopback(createNodeListener(backend.handler));
try {
  const client = createRunClient({ baseUrl: server.url, heartbeatTimeoutMs: 4_000 });
  const handle = client.start({ input: `[scenario:${scenario.name}] ${scenario.input}` });
  const recorder = recordRun(handle);
  const done = await Promise.race([
    handle.result,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the demo run took over 30 s')), 30_000)),
  ]);
  const recording = recorder.stop();
  await writeFile(target, `${JSON.stringify(recording, null, 2)}\n`);
  console.log(`${done.output.status}: ${recording.entries.length} entries -> ${target}`);
} finally {
  backend.close();
  await server.close();
}
