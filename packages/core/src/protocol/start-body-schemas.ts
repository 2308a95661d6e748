import * as z from 'zod/mini';
import { nonEmpty } from './schemas.js';

/* What a server checks of a start request (the proxy does); the run client builds it and does not parse it. */

/** The optional `responseFormat` of a start-run body: asks for a `finalizedPayload` that follows this JSON schema. */
export const responseFormatSchema = z.object({
  type: z.literal('json_schema'),
  name: nonEmpty,
  schema: z.record(z.string(), z.unknown()),
});
/** Body of `POST /v1/sessions/{sessionId}/runs`: the user's `input` and an optional `responseFormat`. */
export const startRunBodySchema = z.object({
  input: z.string(),
  responseFormat: z.optional(responseFormatSchema),
});
