import * as z from 'zod/mini';
import { interactionAnswerSchema } from '../protocol/schemas.js';

/*
 * The recording file format, version 1 (docs/debugging.md#the-recording-format). Strict objects: a recording is
 * our own file, so a field this version does not know is a mistake worth naming, not something to carry along.
 */

const ms = z.number().check(z.gte(0));
const count = z.int().check(z.gte(0));
const method = z.enum(['GET', 'POST']);

/** A `RunError` as stored in a recording (the client's reason a connection or attempt had no outcome). */
export const recordedRunErrorSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('transport'), message: z.string() }),
  z.strictObject({ kind: z.literal('truncated'), message: z.string(), lastSeq: count }),
  z.strictObject({
    kind: z.literal('protocol'),
    message: z.string(),
    eventType: z.nullable(z.string()),
    seq: z.nullable(z.number()),
    path: z.array(z.union([z.string(), z.number()])),
    raw: z.unknown(),
  }),
  z.strictObject({ kind: z.literal('http'), message: z.string(), status: z.int(), code: z.nullable(z.string()) }),
  z.strictObject({ kind: z.literal('timeout'), message: z.string(), timeoutMs: ms }),
]);

const at = { t: ms };

/** One thing the client saw or did, `t` ms after the recording started. The `type`s are those of `TransportEvent`. */
export const recordingEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...at,
    type: z.literal('attempt'),
    mode: z.enum(['start', 'resume', 'respond']),
    runId: z.nullable(z.string()),
    lastSeq: count,
  }),
  z.strictObject({ ...at, type: z.literal('request'), method, path: z.string(), lastEventId: z.nullable(count) }),
  z.strictObject({ ...at, type: z.literal('response'), method, path: z.string(), status: z.int() }),
  z.strictObject({ ...at, type: z.literal('request-failed'), method, path: z.string(), error: recordedRunErrorSchema }),
  /** One SSE message as framed (`event:`, `id:`, the `data:` lines joined), before the client parsed it. */
  z.strictObject({
    ...at,
    type: z.literal('message'),
    event: z.nullable(z.string()),
    id: z.nullable(z.string()),
    data: z.string(),
  }),
  z.strictObject({
    ...at,
    type: z.literal('connection-closed'),
    outcome: z.enum(['ended', 'lost', 'stopped']),
    reason: z.nullable(z.string()),
  }),
  z.strictObject({ ...at, type: z.literal('heartbeat-lost'), timeoutMs: ms }),
  z.strictObject({ ...at, type: z.literal('reconnect-wait'), attempt: count, delayMs: ms, reason: z.string() }),
  z.strictObject({ ...at, type: z.literal('resume'), afterSeq: count }),
  /** The terminal event read from `/result` (wire JSON), or `null` when the run had not settled. */
  z.strictObject({
    ...at,
    type: z.literal('result'),
    reason: z.enum(['events-gone', 'stream-ended']),
    event: z.nullable(z.record(z.string(), z.unknown())),
  }),
  z.strictObject({ ...at, type: z.literal('answer'), interactionId: z.string(), answer: interactionAnswerSchema }),
  z.strictObject({ ...at, type: z.literal('error'), error: recordedRunErrorSchema }),
]);

/** Where the recording stopped keeping entries because it reached `maxBytes`. */
export const recordingTruncationSchema = z.strictObject({
  /** When the first entry was left out (ms since the start). */
  atMs: ms,
  /** The bound that was reached, in bytes of JSON. */
  maxBytes: count,
  /** How many entries were left out after it. */
  droppedEntries: count,
});

/** How the recorded run stood when the recording was taken. */
export const recordingFinalStateSchema = z.strictObject({
  phase: z.enum(['idle', 'connecting', 'streaming', 'reconnecting', 'settled', 'detached', 'error']),
  status: z.nullable(z.enum(['COMPLETED', 'FAILED', 'CANCELLED', 'WAITING'])),
  lastSeq: count,
  eventCount: count,
});

/** A recording of one run as its client saw it: `{ version: 1, format: 'kestrel-recording', ... }`. */
export const runRecordingSchema = z.strictObject({
  version: z.literal(1),
  format: z.literal('kestrel-recording'),
  /** Wall-clock time of `t = 0`, ISO 8601. */
  startedAt: z.string(),
  runId: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  final: recordingFinalStateSchema,
  /** `null` unless entries were left out past `maxBytes`. */
  truncated: z.nullable(recordingTruncationSchema),
  /** Names of the redactions applied (`inputs`, `texts`, `payload-values`, or the app's own). */
  redactions: z.array(z.string()),
  entries: z.array(recordingEntrySchema),
});
