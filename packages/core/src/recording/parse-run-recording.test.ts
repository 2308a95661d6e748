import { describe, expect, it } from 'vitest';
import { parseRunRecording } from './parse-run-recording.js';
import { RecordingFormatError } from './recording-format-error.js';
import type { RunRecording } from './recording-types.js';
import { recordingToJsonLines } from './recording-to-json-lines.js';

const recording: RunRecording = {
  version: 1,
  format: 'kestrel-recording',
  startedAt: '2026-12-01T18:00:00.000Z',
  runId: 'run_1',
  sessionId: 'ses_1',
  final: { phase: 'settled', status: 'COMPLETED', lastSeq: 1, eventCount: 1 },
  truncated: null,
  redactions: [],
  entries: [
    { t: 0, type: 'attempt', mode: 'start', runId: null, lastSeq: 0 },
    { t: 1, type: 'request', method: 'POST', path: '/v1/sessions/new/runs', lastEventId: null },
    { t: 2, type: 'response', method: 'POST', path: '/v1/sessions/new/runs', status: 200 },
    { t: 3, type: 'message', event: 'run.started', id: '1', data: '{"type":"run.started","seq":1}' },
    { t: 4, type: 'message', event: null, id: null, data: 'not json' },
    { t: 5, type: 'connection-closed', outcome: 'ended', reason: null },
  ],
};

function formatError(value: unknown): RecordingFormatError {
  try {
    parseRunRecording(value);
  } catch (error) {
    expect(error).toBeInstanceOf(RecordingFormatError);
    return error as RecordingFormatError;
  }
  return expect.unreachable('expected a RecordingFormatError');
}

describe('parseRunRecording', () => {
  it('reads back what was saved as JSON', () => {
    expect(parseRunRecording(JSON.parse(JSON.stringify(recording)))).toEqual(recording);
  });

  it('names the field that is wrong, with its path', () => {
    const bad = { ...recording, entries: [...recording.entries.slice(0, 3), { ...recording.entries[3], t: 'soon' }] };
    const error = formatError(bad);
    expect(error.path).toEqual(['entries', 3, 't']);
    expect(error.message).toMatch(/^Not a Kestrel recording: entries\[3\]\.t: /);
  });

  it('refuses another version, an unknown entry type, a field this version does not know, and a non-object', () => {
    expect(formatError({ ...recording, version: 2 }).path).toEqual(['version']);
    expect(formatError({ ...recording, entries: [{ t: 0, type: 'teleport' }] }).path).toEqual(['entries', 0, 'type']);
    expect(formatError({ ...recording, extra: true }).issues[0]?.message).toMatch(/extra/);
    expect(formatError('{"version":1}').path).toEqual([]);
  });
});

describe('recordingToJsonLines', () => {
  it('writes a header line, then one JSON object per entry, message data parsed when it is JSON', () => {
    const lines = recordingToJsonLines(recording).split('\n');
    expect(lines.at(-1)).toBe('');
    const objects = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects).toHaveLength(1 + recording.entries.length);
    expect(objects[0]).toEqual({
      type: 'recording',
      version: 1,
      format: 'kestrel-recording',
      startedAt: recording.startedAt,
      runId: 'run_1',
      sessionId: 'ses_1',
      final: recording.final,
      truncated: null,
      redactions: [],
    });
    expect(objects[4]).toEqual({
      t: 3,
      type: 'message',
      event: 'run.started',
      id: '1',
      data: { type: 'run.started', seq: 1 },
      dataFormat: 'json',
    });
    expect(objects[5]).toMatchObject({ data: 'not json', dataFormat: 'text' });
    expect(objects[6]).toEqual(recording.entries[5]);
  });
});
