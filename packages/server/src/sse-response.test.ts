import {
  createRunClient,
  parseRunEvent,
  parseSSEMessage,
  requestErrorBodySchema,
  type ProtocolError,
  type RunCompletedEvent,
  type RunEvent,
} from '@kestrel/core';
import { getScenario, scenarioEvents } from '@kestrel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse } from './index.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';
import { readSSEResponse } from './read-sse-response.test-helper.js';
import { sleep } from './scripted-upstream.js';
import { sseResponse } from './sse-response.js';

const eventsOf = (name: string): RunEvent[] =>
  scenarioEvents(getScenario(name).steps).map((event) => parseRunEvent(event));

async function* paced(events: readonly RunEvent[], ms = 0, onFinally?: () => void): AsyncGenerator<RunEvent> {
  try {
    for (const event of events) {
      if (ms > 0) await sleep(ms);
      yield event;
    }
  } finally {
    onFinally?.();
  }
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('sseResponse', () => {
  it('frames every event with its type and seq as id, and ends after run.completed', async () => {
    const events = eventsOf('event-after-completed');
    let closed = false;
    const response = sseResponse(paced(events, 0, () => (closed = true)));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const { messages, ending } = await readSSEResponse(response);
    const terminalIndex = events.findIndex((event) => event.type === 'run.completed');
    expect(ending).toBe('clean');
    expect(messages).toHaveLength(terminalIndex + 1);
    for (const [index, message] of messages.entries()) {
      const event = parseSSEMessage(message);
      expect(message.id).toBe(String(events[index]?.seq));
      expect(message.event).toBe(event.type);
      expect(event).toEqual(events[index]);
    }
    // The iterator was closed, not left hanging, once the terminal event went out.
    expect(closed).toBe(true);
  });

  it('writes an unknown interaction kind back as the server named it', async () => {
    const events = eventsOf('waiting-unknown-kind');
    const { messages } = await readSSEResponse(sseResponse(paced(events)));
    const last = JSON.parse(messages.at(-1)?.data ?? '{}') as {
      output: { interaction: { kind: string; originalKind?: string } };
    };
    expect(last.output.interaction.kind).toBe('signature');
    expect(last.output.interaction).not.toHaveProperty('originalKind');
  });

  it('writes keep-alive comments while the run is silent', async () => {
    const events = eventsOf('completed-text').slice(0, 2);
    const { comments } = await readSSEResponse(sseResponse(paced(events, 120), { keepAliveMs: 40 }));
    expect(comments.filter((comment) => comment === 'keep-alive').length).toBeGreaterThanOrEqual(2);
  });

  it('closes the event source when the client disconnects', async () => {
    let finished = false;
    const forever = async function* (): AsyncGenerator<RunEvent> {
      try {
        // A live run: an event now and then, for as long as someone listens.
        for (let seq = 1; ; seq += 1) {
          yield parseRunEvent({ type: 'progress', runId: 'run_live', sessionId: 'ses_live', seq, label: 'working' });
          await sleep(30);
        }
      } finally {
        finished = true;
      }
    };
    server = await listenOnLoopback(
      createNodeListener((request) => sseResponse(forever(), { signal: request.signal })),
    );
    const abort = new AbortController();
    const response = await fetch(`${server.url}/events`, { signal: abort.signal });
    const reader = response.body?.getReader();
    await reader?.read();
    abort.abort();
    for (let i = 0; i < 50 && !finished; i += 1) await sleep(20);
    expect(finished).toBe(true);
  });

  it('cuts the connection (no clean end) when the event source fails', async () => {
    const failing = async function* (): AsyncGenerator<RunEvent> {
      yield* eventsOf('completed-text').slice(0, 3);
      throw new Error('upstream lost');
    };
    server = await listenOnLoopback(createNodeListener(() => sseResponse(failing())));
    const { messages, ending } = await readSSEResponse(await fetch(`${server.url}/events`));
    expect(messages).toHaveLength(3);
    expect(ending).toBe('dropped');
  });
});

describe('sseResponse refuses to send an event that breaks the protocol', () => {
  const events = eventsOf('completed-text');
  const terminal = events.at(-1) as RunCompletedEvent;
  const withoutText: RunCompletedEvent = { ...terminal, output: { status: 'COMPLETED', assistantText: '' } };

  it('a COMPLETED without assistant text is not written: the stream ends with no terminal event, and onProtocolError names seq and field', async () => {
    let closed = false;
    const reported: ProtocolError[] = [];
    const source = paced([...events.slice(0, -1), withoutText], 0, () => (closed = true));
    const { messages, ending } = await readSSEResponse(
      sseResponse(source, { onProtocolError: (error) => reported.push(error) }),
    );
    expect(ending).toBe('clean');
    expect(messages.map((message) => message.event)).toEqual(events.slice(0, -1).map((event) => event.type));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({
      eventType: 'run.completed',
      seq: terminal.seq,
      path: ['output', 'assistantText'],
    });
    expect(closed).toBe(true);
  });

  it('a run client reading that stream over HTTP reports no outcome', async () => {
    server = await listenOnLoopback(
      createNodeListener(() =>
        sseResponse(paced([...events.slice(0, -1), withoutText]), { onProtocolError: () => undefined }),
      ),
    );
    const handle = createRunClient({ baseUrl: server.url }).start({ input: 'Write a haiku' });
    await expect(handle.result).rejects.toMatchObject({ kind: 'truncated' });
    expect(handle.getState()).toMatchObject({ phase: 'error', status: null, output: null });
  });

  const at = events.findIndex((event) => event.type === 'text.delta');
  const delta = events[at]!;
  it.each([
    ['a field of the wrong type', { ...delta, delta: 42 } as unknown as RunEvent, ['delta']],
    ['a seq that does not grow', { ...delta, seq: events[at - 1]!.seq }, ['seq']],
    ["another run's event", { ...delta, runId: 'run_other' }, ['runId']],
  ] as const)('%s ends the stream before it, and nothing after it is written', async (_name, bad, path) => {
    const reported: ProtocolError[] = [];
    const source = paced([...events.slice(0, at), bad, ...events.slice(at)]);
    const { messages, ending } = await readSSEResponse(
      sseResponse(source, { onProtocolError: (error) => reported.push(error) }),
    );
    expect(ending).toBe('clean');
    expect(messages.map((message) => parseSSEMessage(message))).toEqual(events.slice(0, at));
    expect(reported.map((error) => error.path)).toEqual([path]);
  });
});

describe('errorResponse', () => {
  it("answers with the protocol's error body and the given status", async () => {
    const response = errorResponse(409, 'run_not_settled', 'The run is still streaming');
    expect(response.status).toBe(409);
    expect(requestErrorBodySchema.parse(await response.json())).toEqual({
      error: { code: 'run_not_settled', message: 'The run is still streaming' },
    });
  });
});
