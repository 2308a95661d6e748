import type { IssuePath } from '../protocol/protocol-error.js';
import type { RunError } from './run-state.js';

/** A `RunError` of kind `protocol`. */
export type ProtocolRunError = Extract<RunError, { readonly kind: 'protocol' }>;

/** What any report of a protocol violation carries: a `ProtocolError`, a `client/protocol-error` action, a detail. */
export interface ProtocolErrorFields {
  readonly message: string;
  readonly eventType?: string | null | undefined;
  readonly seq?: number | null | undefined;
  readonly path?: IssuePath | undefined;
  readonly raw?: unknown;
}

/**
 * The one mapping from a protocol violation (a `ProtocolError`, or an action or detail shaped like one) to the
 * `RunError` kept in `state.error`: what is not known is `null`, the path is `[]`.
 */
export function toProtocolRunError(error: ProtocolErrorFields): ProtocolRunError {
  return {
    kind: 'protocol',
    message: error.message,
    eventType: error.eventType ?? null,
    seq: error.seq ?? null,
    path: error.path ?? [],
    raw: error.raw,
  };
}
