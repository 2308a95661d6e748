import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeSSE, parseRunCompletedEvent, parseSSEMessage } from '@kestrel/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockKestrel, type MockKestrel } from './mock.js';

const open: MockKestrel[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((kestrel) => kestrel.close()));
});

async function start(options: Parameters<typeof createMockKestrel>[0] = {}) {
  const kestrel = await createMockKestrel(options);
  open.push(kestrel);
  return kestrel;
}

const post = (url: string, scenario: string, accept = 'text/event-stream', signal?: AbortSignal) =>
  fetch(`${url}/v1/sessions/new/runs`, {
    method: 'POST',
    headers: { accept, 'content-type': 'application/json', 'x-kestrel-scenario': scenario },
    body: JSON.stringify({ input: 'hello' }),
    ...(signal === undefined ? {} : { signal }),
  });

describe('createMockKestrel', () => {
  it('serves the scenarios on 127.0.0.1 at a free port', async () => {
    const kestrel = await start();
    expect(kestrel.url).toBe(`http://127.0.0.1:${kestrel.port}`);
    expect(kestrel.port).toBeGreaterThan(0);
    const response = await post(kestrel.url, 'waiting-approval');
    const events = [];
    for await (const message of decodeSSE(response.body ?? new ReadableStream())) events.push(parseSSEMessage(message));
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', output: { status: 'WAITING' } });
    const json = await post(kestrel.url, 'failed-retryable', 'application/json');
    expect(parseRunCompletedEvent(await json.json()).output.status).toBe('FAILED');
  });

  it('binds the port it is given', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const kestrel = await start({ port });
    expect(kestrel.port).toBe(port);
    expect((await post(kestrel.url, 'completed-text', 'application/json')).status).toBe(200);
  });

  it('close() ends open streams, resolves once closed, and the port stops answering', async () => {
    const kestrel = await createMockKestrel({ stallMs: 60_000 });
    const response = await post(kestrel.url, 'stalled-heartbeat');
    const reader = (response.body ?? new ReadableStream()).getReader();
    await reader.read();
    expect(kestrel.handler.openStreams).toBe(1);
    await kestrel.close();
    expect(kestrel.handler.openStreams).toBe(0);
    const drained = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })().catch(() => 'cut');
    expect(['ended', 'cut']).toContain(await drained);
    await expect(post(kestrel.url, 'completed-text')).rejects.toThrow();
  });

  it('drops the socket for a drop fault: the client sees a broken connection, not an end', async () => {
    const kestrel = await start();
    const response = await post(kestrel.url, 'dropped-mid-stream');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const message of decodeSSE(response.body ?? new ReadableStream())) seen.push(message.id ?? '');
      })(),
    ).rejects.toThrow();
    expect(seen.length).toBeGreaterThan(4);
  });
});
