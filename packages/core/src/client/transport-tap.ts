import { callAll, callSafely } from '../callbacks.js';
import type { TransportEvent, TransportListener } from './transport-event.js';
import type { RunSource } from './types.js';

/** Where the client reports its wire activity for one run (see `RunHandle.subscribeTransport`). */
export interface TransportTap {
  /** Whether anyone listens: callers build an event only then, so an unobserved run pays one property read. */
  readonly active: boolean;
  emit(event: TransportEvent): void;
  /** Tells one listener (a new subscriber) an event, as `emit` does. */
  tell(listener: TransportListener, event: TransportEvent): void;
  /** Adds `listener` unless present (then `false`); returns whether it was added. */
  add(listener: TransportListener): boolean;
  remove(listener: TransportListener): void;
  /** The listeners now, for the attempt `respond()` begins: it keeps reporting to them. */
  listeners(): readonly TransportListener[];
}

/** `attempt` is the handle reporting: listeners are told who speaks, as the run moves from attempt to attempt. */
export function createTransportTap(
  attempt: RunSource<unknown>,
  inherited: readonly TransportListener[] = [],
): TransportTap {
  const listeners = new Set(inherited);
  return {
    get active() {
      return listeners.size > 0;
    },
    emit(event) {
      callAll(listeners, event, attempt);
    },
    tell(listener, event) {
      callSafely(listener, event, attempt);
    },
    add(listener) {
      if (listeners.has(listener)) return false;
      listeners.add(listener);
      return true;
    },
    remove(listener) {
      listeners.delete(listener);
    },
    listeners: () => [...listeners],
  };
}
