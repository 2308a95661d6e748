import type { ProtocolError } from '../protocol/protocol-error.js';
import type { ClientAction } from '../run/run-action.js';

/** The reducer action for a protocol error the parser raised, keeping its seq, path and raw value. */
export function protocolErrorAction(error: ProtocolError): ClientAction {
  return { type: 'client/protocol-error', message: error.message, eventType: error.eventType, seq: error.seq, path: error.path, raw: error.raw };
}
