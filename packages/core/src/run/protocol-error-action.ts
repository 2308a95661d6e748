import type { ProtocolErrorFields } from './protocol-run-error.js';
import type { ClientAction } from './run-action.js';

/**
 * The reducer action for a protocol error the parser raised (or a `RunError` of kind `protocol`), keeping its seq,
 * path and raw value. The reducer turns it back into the same `RunError` with `toProtocolRunError`.
 */
export function protocolErrorAction(error: ProtocolErrorFields): ClientAction {
  return {
    type: 'client/protocol-error',
    message: error.message,
    eventType: error.eventType ?? undefined,
    seq: error.seq ?? undefined,
    path: error.path,
    raw: error.raw,
  };
}
