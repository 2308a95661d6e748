import { parseRunCompletedEvent, parseRunEvent, parseSSEMessage, requestErrorBodySchema, type RunEvent } from '@kestrel/core';
import { getScenario, scenarioEvents } from '@kestrel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse } from './error-response.js';
import { jsonRunResponse } from './json-run-response.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';
import { readSSE } from './read-sse.js';
import { sleep } from './scripted-upstream.js';
import { sseResponse } from './sse-response.js';

const eventsOf = (name: string): RunEvent[] => scenarioEvents(getScenario(name).steps).map((event) => parseRunEvent(event));

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
    const { messages, ending } = await readSSE(response);
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
    const { messages } = await readSSE(sseResponse(paced(events)));
    const last = JSON.parse(messages.at(-1)?.data ?? '{}') as { output: { interaction: { kind: string; originalKind?: string } } };
    expect(last.output.interaction.kind).toBe('signature');
    expect(last.output.interaction).not.toHaveProperty('originalKind');
  });

  it('writes keep-alive comments while the run is silent', async () => {
    const events = eventsOf('completed-text').slice(0, 2);
    const { comments } = await readSSE(sseResponse(paced(events, 120), { keepAliveMs: 40 }));
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
    server = await listenOnLoopback(createNodeListener((request) => sseResponse(forever(), { signal: request.signal })));
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
    const { messages, ending } = await readSSE(await fetch(`${server.url}/events`));
    expect(messages).toHaveLength(3);
    expect(ending).toBe('dropped');
  });
});

describe('jsonRunResponse', () => {
  it.each(['completed-payload', 'failed-no-text', 'cancelled', 'waiting-form', 'waiting-unknown-kind'])(
    'answers %s with exactly its terminal event and status 200',
    async (name) => {
      const wire = scenarioEvents(getScenario(name).steps).find((event) => event.type === 'run.completed');
      const response = jsonRunResponse(parseRunCompletedEvent(wire));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual(wire);
    },
  );
});

describe('errorResponse', () => {
  it("answers with PROTOCOL's error body and the given status", async () => {
    const response = errorResponse(409, 'run_not_settled', 'The run is still streaming');
    expect(response.status).toBe(409);
    expect(requestErrorBodySchema.parse(await response.json())).toEqual({
      error: { code: 'run_not_settled', message: 'The run is still streaming' },
    });
  });
});
