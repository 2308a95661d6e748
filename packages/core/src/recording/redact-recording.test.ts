import { createEventFactory } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactInputs, redactPayloadValues, redactTexts } from './redact-recording.js';
import type { RecordingEntry, RunRecording } from './recording-types.js';
import { recordingToJsonLines } from './recording-to-json-lines.js';

/*
 * A recording holding one secret in every place the helpers promise to clear: an input field, an answer, text
 * and reasoning deltas, a log, a progress label, assistant text (in the stream and in a /result answer), a
 * payload, tool input and output, an unknown event, non-JSON data and a protocol error's raw value.
 */
const SECRET = 'hunter2-4242';
const e = createEventFactory({ runId: 'run_secret' });
const events = [
  e.started(),
  e.event('message.received', { messageId: 'msg_1', content: `my password is ${SECRET}` }),
  e.reasoning(`thinking about ${SECRET}`),
  e.text(`Your code is ${SECRET}`),
  e.log('info', `looked up ${SECRET}`),
  e.progress(`checking ${SECRET}`, 0.5),
  e.toolStarted('call_1', 'vault.read', { key: SECRET, pin: 4242 }),
  e.toolCompleted('call_1', { value: SECRET, nested: [{ secret: SECRET }] }),
  e.event('x.custom', { note: SECRET }),
  e.completed({
    status: 'COMPLETED',
    assistantText: `Your code is ${SECRET}`,
    finalizedPayload: { code: SECRET, n: 4242 },
  }),
];
let t = 0;
const message = (data: string): RecordingEntry => ({ t: t++, type: 'message', event: null, id: null, data });
const recording: RunRecording = {
  version: 1,
  format: 'kestrel-recording',
  startedAt: '2026-12-01T18:00:00.000Z',
  runId: 'run_secret',
  sessionId: 'ses_root',
  final: { phase: 'settled', status: 'COMPLETED', lastSeq: events.length, eventCount: events.length },
  truncated: null,
  redactions: [],
  entries: [
    ...events.map((event) => message(JSON.stringify(event))),
    message(`not json ${SECRET}`),
    { t: t++, type: 'answer', interactionId: 'int_1', answer: { kind: 'text', text: SECRET } },
    { t: t++, type: 'answer', interactionId: 'int_2', answer: { kind: 'approval', approved: true, comment: SECRET } },
    { t: t++, type: 'answer', interactionId: 'int_3', answer: { kind: 'form', values: { a: SECRET, b: 4242 } } },
    { t: t++, type: 'result', reason: 'events-gone', event: events.at(-1)! },
    {
      t: t++,
      type: 'error',
      error: { kind: 'protocol', message: 'bad event', eventType: 'x', seq: 3, path: [], raw: { leaked: SECRET } },
    },
  ],
};

const redactAll = (value: RunRecording) => redactPayloadValues(redactTexts(redactInputs(value)));

describe('redaction', () => {
  it('leaves nothing redacted anywhere in the document, nor in its JSON Lines export', () => {
    expect(JSON.stringify(recording)).toContain(SECRET);
    const redacted = redactAll(recording);
    expect(JSON.stringify(redacted)).not.toContain('hunter2');
    expect(JSON.stringify(redacted)).not.toContain('4242');
    expect(recordingToJsonLines(redacted)).not.toContain('hunter2');
    expect(redacted.redactions).toEqual(['inputs', 'texts', 'payload-values']);
  });

  it('keeps what a replay needs: every event, its type, seq, ids and the outcome status', () => {
    const redacted = redactAll(recording);
    const read = (value: RunRecording): unknown[] =>
      value.entries.map((entry) => {
        if (entry.type !== 'message') return entry.type;
        try {
          const { type, seq, runId, callId, output } = JSON.parse(entry.data) as Record<string, unknown>;
          return { type, seq, runId, callId, status: (output as { status?: string } | undefined)?.status };
        } catch {
          return 'not json';
        }
      });
    expect(read(redacted)).toEqual(read(recording));
    const completed = redacted.entries[events.length - 1] as { data: string };
    expect((JSON.parse(completed.data) as { output: unknown }).output).toEqual({
      status: 'COMPLETED',
      assistantText: REDACTED,
      finalizedPayload: { code: REDACTED, n: 0 },
    });
  });

  it('each helper clears only its own part', () => {
    const texts = JSON.stringify(redactTexts(recording));
    expect(texts).not.toContain(`Your code is ${SECRET}`);
    expect(texts).toContain(`\\"key\\":\\"${SECRET}\\"`); // a tool input is a payload value, not text
    const inputs = JSON.stringify(redactInputs(recording));
    expect(inputs).not.toContain(`my password is ${SECRET}`);
    expect(inputs).toContain(`thinking about ${SECRET}`);
  });
});
