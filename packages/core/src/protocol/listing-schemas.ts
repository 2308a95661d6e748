import * as z from 'zod/mini';
import { integer, interactionAnswerSchema, isoDateTime, nonEmpty, runCompletedEventSchema } from './schemas.js';

/*
 * The session listing's schemas, apart from the run's: a module a run's client does not import, so an app that only
 * follows runs (useRun) does not carry them (zod schemas are built when their module loads; a bundler keeps them all).
 */

/** One answer given in a run, as a session listing reports it: which interaction, in which attempt, and the answer. */
export const sessionAnswerSchema = z.looseObject({
  interactionId: nonEmpty,
  attempt: z.number().check(integer, z.gte(1)),
  answer: interactionAnswerSchema,
});
/**
 * One run of a session listing (docs/protocol.md#a-sessions-runs): its input, whether it is live, its latest
 * attempt's terminal event once settled (validated as that event), and the answers given in it, in order.
 */
export const runSummarySchema = z.looseObject({
  runId: nonEmpty,
  sessionId: nonEmpty,
  input: z.string(),
  createdAt: z.string().check(z.regex(isoDateTime, 'Invalid ISO datetime')),
  attempt: z.number().check(integer, z.gte(1)),
  live: z.boolean(),
  result: z.optional(runCompletedEventSchema),
  answers: z.array(sessionAnswerSchema),
});
/** A page of `GET /v1/sessions/{sessionId}/runs`: runs oldest first, and the cursor to the older ones (or null). */
export const runListPageSchema = z.looseObject({
  runs: z.array(runSummarySchema),
  nextCursor: z.nullable(nonEmpty),
});
