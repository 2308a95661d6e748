import { describe, expect, it } from 'vitest';
import { getScenario } from '../scenarios.js';
import { createScenarioFetch } from './create-scenario-fetch.js';
import { createScenarioHandler } from './create-scenario-handler.js';
import {
  SSE,
  dataOf,
  readStream,
  runIdOf,
  seqsOf,
  sessionIdOf,
  startKestrel,
  startRun,
  type StreamRead,
} from './loopback.test-helper.js';

/** Plays a scenario the way a careful client does (resume after each drop, answer a WAITING once) and records every connection. */
async function session(fetchImpl: typeof fetch, url: string, name: string): Promise<StreamRead[]> {
  const reads: StreamRead[] = [];
  const started = await startRun({ url }, name, { fetch: fetchImpl });
  const runId = runIdOf(started);
  reads.push(await readStream(started));
  while (reads.at(-1)?.ending === 'dropped') {
    const last = seqsOf(reads.flatMap((read) => read.messages)).at(-1) ?? 0;
    reads.push(
      await readStream(
        await fetchImpl(`${url}/v1/runs/${runId}/events`, { headers: { accept: SSE, 'last-event-id': String(last) } }),
      ),
    );
  }
  const continuation = getScenario(name).continuation;
  if (continuation !== undefined) {
    const terminal = dataOf(reads.flatMap((read) => read.messages)).find((event) => event.type === 'run.completed');
    const id = (terminal?.output as { interaction?: { id?: string } } | undefined)?.interaction?.id ?? '';
    const response = await fetchImpl(`${url}/v1/sessions/${sessionIdOf(started)}/interactions/${id}`, {
      method: 'POST',
      headers: { accept: SSE, 'content-type': 'application/json' },
      body: JSON.stringify(continuation.answer),
    });
    reads.push(await readStream(response));
  }
  return reads;
}

const summary = (reads: readonly StreamRead[]) =>
  reads.map((read) => ({ ending: read.ending, messages: read.messages }));

describe('createScenarioFetch', () => {
  it.each(['dropped-mid-stream', 'duplicate-after-resume', 'waiting-approval'])(
    'behaves like the loopback server for %s, connection by connection',
    async (name) => {
      const kestrel = await startKestrel();
      const overServer = await session(fetch, kestrel.url, name);
      const inMemory = await session(createScenarioFetch({ stallMs: 40 }), 'http://anywhere.example', name);
      expect(summary(inMemory)).toEqual(summary(overServer));
      expect(overServer.length).toBeGreaterThan(1);
    },
  );

  it('answers request errors and the JSON route like the server', async () => {
    const scenarioFetch = createScenarioFetch();
    const unknown = await startRun({ url: 'http://kestrel.test' }, 'nope', { fetch: scenarioFetch });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'unknown_scenario' } });
    const json = await startRun({ url: 'http://kestrel.test' }, 'failed-no-text', {
      fetch: scenarioFetch,
      accept: 'application/json',
    });
    expect(await json.json()).toMatchObject({ type: 'run.completed', output: { status: 'FAILED' } });
  });

  it('fails the body read with a TypeError when the scenario drops the connection, as fetch does', async () => {
    const read = await readStream(
      await startRun({ url: 'http://kestrel.test' }, 'dropped-mid-stream', { fetch: createScenarioFetch() }),
    );
    expect(read.ending).toBe('dropped');
    expect(read.error).toBeInstanceOf(TypeError);
  });

  it('rejects with the abort reason when the caller aborts, and the handler closes the stream', async () => {
    const handler = createScenarioHandler({ stallMs: 60_000 });
    const scenarioFetch = createScenarioFetch({ handler });
    const abort = new AbortController();
    const response = await startRun({ url: 'http://kestrel.test' }, 'stalled-heartbeat', {
      fetch: scenarioFetch,
      signal: abort.signal,
    });
    const reading = readStream(response);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handler.openStreams).toBe(1);
    abort.abort();
    const read = await reading;
    expect(read.ending).toBe('dropped');
    expect((read.error as Error).name).toBe('AbortError');
    expect(handler.openStreams).toBe(0);
    await expect(
      startRun({ url: 'http://kestrel.test' }, 'completed-text', { fetch: scenarioFetch, signal: abort.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('resolves relative URLs and serves behind a path prefix', async () => {
    const scenarioFetch = createScenarioFetch();
    const response = await scenarioFetch('/api/kestrel/v1/sessions/new/runs', {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: JSON.stringify({ input: '[scenario:max-tokens] fruit' }),
    });
    expect(await response.json()).toMatchObject({ type: 'run.completed', runId: 'run_max_tokens_1' });
  });
});
