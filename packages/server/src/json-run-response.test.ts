import {
  createRunClient,
  parseRunCompletedEvent,
  parseRunEvent,
  requestErrorBodySchema,
  type ProtocolError,
  type RunCompletedEvent,
} from '@kestrel/core';
import { getScenario, scenarioEvents } from '@kestrel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonRunResponse } from './json-run-response.js';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';
import { createNodeListener } from './node-listener.js';

const terminalOf = (name: string): RunCompletedEvent =>
  parseRunCompletedEvent(scenarioEvents(getScenario(name).steps).find((event) => event.type === 'run.completed'));

/** What a buggy backend can build: it type-checks, and the protocol forbids it (COMPLETED needs its text). */
function completedWithoutText(): RunCompletedEvent {
  const event = terminalOf('completed-text');
  return { ...event, output: { status: 'COMPLETED', assistantText: '' } };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
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

  it('answers a COMPLETED without assistant text with 500 invalid_outcome naming seq and field, never a 200', async () => {
    const event = completedWithoutText();
    const reported: ProtocolError[] = [];
    const response = jsonRunResponse(event, { onProtocolError: (error) => reported.push(error) });
    expect(response.status).toBe(500);
    const body = requestErrorBodySchema.parse(await response.json());
    expect(body.error.code).toBe('invalid_outcome');
    expect(body.error.message).toContain(`(seq ${event.seq})`);
    expect(body.error.message).toContain('at output.assistantText');
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ seq: event.seq, path: ['output', 'assistantText'] });
  });

  it('refuses an event that is not run.completed, naming its type', async () => {
    const delta = parseRunEvent({ type: 'text.delta', runId: 'run_1', sessionId: 'ses_1', seq: 3, delta: 'Hel' });
    const response = jsonRunResponse(delta as unknown as RunCompletedEvent, { onProtocolError: () => undefined });
    expect(response.status).toBe(500);
    const body = requestErrorBodySchema.parse(await response.json());
    expect(body.error).toMatchObject({ code: 'invalid_outcome' });
    expect(body.error.message).toContain('expected a "run.completed" event, got "text.delta"');
  });

  it('refuses an event JSON cannot carry as a typed error, not a crash', async () => {
    const event = terminalOf('completed-payload');
    const bigint = { ...event, output: { ...event.output, finalizedPayload: { total: 10n } } } as RunCompletedEvent;
    const response = jsonRunResponse(bigint, { onProtocolError: () => undefined });
    expect(response.status).toBe(500);
    expect(requestErrorBodySchema.parse(await response.json()).error.message).toContain('cannot be written as JSON');
  });

  it('the run client reading the JSON route gets an http error for it, not an outcome', async () => {
    server = await listenOnLoopback(
      createNodeListener(() => jsonRunResponse(completedWithoutText(), { onProtocolError: () => undefined })),
    );
    const client = createRunClient({ baseUrl: server.url });
    await expect(client.run({ input: 'Summarise the report' })).rejects.toMatchObject({
      kind: 'http',
      status: 500,
      code: 'invalid_outcome',
    });
  });
});
