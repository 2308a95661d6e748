import { createEventFactory } from '@kestrel/testing';
import { encodeSSEEvent } from '@kestrel/core';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createKestrelProxy } from './kestrel-proxy.js';
import type { LoopbackServer } from './listen-loopback.js';
import { startScriptedUpstream } from './scripted-upstream.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const open: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** Whether `ref`'s request was collected, once the job that made it has ended (a WeakRef holds until then). */
async function collected(ref: WeakRef<Request>): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}

describe('createKestrelProxy: what an open event stream holds', () => {
  it("does not keep the browser's request while the stream stays open (no onProtocolError of the app's)", async () => {
    const e = createEventFactory({ runId: 'run_idle' });
    const upstream = await startScriptedUpstream((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write([e.started(1), e.received()].map((event) => encodeSSEEvent(event as never)).join(''));
      // Stays open and silent, as an idle run does, until the test closes the server.
    });
    open.push(upstream);
    const proxy = createKestrelProxy({ upstream: upstream.url, headers: { authorization: 'Bearer k' } });
    const abort = new AbortController();
    const { response, ref } = await (async () => {
      const request = new Request('http://app.test/v1/runs/run_idle/events', {
        headers: { accept: 'text/event-stream', cookie: 'session=abc' },
        signal: abort.signal,
      });
      return { response: await proxy(request), ref: new WeakRef(request) };
    })();
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('message.received');

    expect(await collected(ref)).toBe(true);
    abort.abort();
    await reader.cancel();
  });
});
