import type { StandardSchemaV1 } from './standard-schema.js';

/** One reason a finalized payload failed the application's schema. */
export interface PayloadIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * The structured output of a COMPLETED run, checked against the application's schema when one was given.
 * An invalid payload is kept (`raw`) and shown as invalid: never dropped, never a protocol error.
 */
export type PayloadState<P = unknown> =
  | { readonly status: 'absent' }
  | { readonly status: 'valid'; readonly value: P }
  | { readonly status: 'invalid'; readonly issues: readonly PayloadIssue[]; readonly raw: unknown };

/** Any Standard Schema (zod 4 schemas are) whose output is the payload type. */
export type PayloadSchema<P = unknown> = StandardSchemaV1<unknown, P>;

function toPathPart(part: PropertyKey | StandardSchemaV1.PathSegment): string | number {
  const key = typeof part === 'object' ? part.key : part;
  return typeof key === 'number' ? key : String(key);
}

/** What checking a value against a Standard Schema gives: its typed value, or every issue with its path. */
export type SchemaCheck<T> =
  | { readonly status: 'valid'; readonly value: T }
  | { readonly status: 'invalid'; readonly issues: readonly PayloadIssue[] };

/**
 * Checks any value (a payload, a tool call's input or output) against a Standard Schema, synchronously. An
 * asynchronous schema is reported as one issue, never awaited: callers (the reducer, a render) are synchronous.
 */
export function checkSchema<T>(schema: StandardSchemaV1<unknown, T>, value: unknown, what = 'schema'): SchemaCheck<T> {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) {
    return {
      status: 'invalid',
      issues: [{ path: [], message: `The ${what} is asynchronous; use a synchronous schema` }],
    };
  }
  if (result.issues !== undefined) {
    return {
      status: 'invalid',
      issues: result.issues.map((issue) => ({ path: (issue.path ?? []).map(toPathPart), message: issue.message })),
    };
  }
  return { status: 'valid', value: result.value };
}

/** Reads `finalizedPayload` through the app's schema. Async schemas are reported as invalid: the reducer is pure. */
export function readPayload<P>(
  output: { readonly finalizedPayload?: unknown },
  schema: PayloadSchema<P> | undefined,
): PayloadState<P> {
  // Absent and undefined alike (an `in` check first would add nothing: a key not there reads as undefined).
  if (output.finalizedPayload === undefined) return { status: 'absent' };
  const raw = output.finalizedPayload;
  if (schema === undefined) return { status: 'valid', value: raw as P };
  const checked = checkSchema(schema, raw, 'payload schema');
  return checked.status === 'valid' ? checked : { status: 'invalid', raw, issues: checked.issues };
}
