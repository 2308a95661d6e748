import type { InteractionAnswer, RunCompletedEvent } from '../protocol/types.js';
import type { RunError } from '../run/run-state.js';
import type { SSEMessage } from '../sse/sse-message.js';
import type { RunSource } from './types.js';

/** How an attempt began: a new run, a re-attach by id, or the attempt after an answer. */
export type AttemptMode = 'start' | 'resume' | 'respond';

/** How one connection ended: the server closed it, it was lost (drop, heartbeat), or the client stopped reading. */
export type ConnectionOutcome = 'ended' | 'lost' | 'stopped';

/** Why the client read `GET /v1/runs/{runId}/result`: `/events` was gone (404/410), or a resumed stream ended early. */
export type ResultFallbackReason = 'events-gone' | 'stream-ended';

/**
 * What the run client does on the wire for one run, as data, in order: the requests and their answers, every SSE
 * message as received, drops, heartbeat losses, reconnect waits, resumes, `/result` fallbacks, answers and errors.
 * Heard through {@link RunHandle.subscribeTransport}; `recordRun` writes them into a recording.
 */
export type TransportEvent =
  /** Told to a listener first when it subscribes, and again for each attempt `respond()` begins. */
  | {
      readonly type: 'attempt';
      readonly mode: AttemptMode;
      readonly runId: string | null;
      readonly lastSeq: number;
    }
  /** A request is sent; `lastEventId` is the `Last-Event-ID` header, `null` when none was sent. */
  | {
      readonly type: 'request';
      readonly method: 'GET' | 'POST';
      readonly path: string;
      readonly lastEventId: number | null;
    }
  /** Its response headers arrived (any status; a non-2xx one is then reported as an `error`). */
  | { readonly type: 'response'; readonly method: 'GET' | 'POST'; readonly path: string; readonly status: number }
  /** It got no response at all (network, timeout). */
  | {
      readonly type: 'request-failed';
      readonly method: 'GET' | 'POST';
      readonly path: string;
      readonly error: RunError;
    }
  /** One SSE message, as framed, before it is parsed (an invalid one is heard too). */
  | { readonly type: 'message'; readonly message: SSEMessage }
  | { readonly type: 'connection-closed'; readonly outcome: ConnectionOutcome; readonly reason: string | null }
  /** No byte for `timeoutMs`: the connection is dropped and resumed. */
  | { readonly type: 'heartbeat-lost'; readonly timeoutMs: number }
  | { readonly type: 'reconnect-wait'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  /** A reconnect asks for the events after seq `afterSeq` (`Last-Event-ID`). */
  | { readonly type: 'resume'; readonly afterSeq: number }
  /** `/result` was read instead of events: the terminal event, or `null` while the run had not settled. */
  | {
      readonly type: 'result';
      readonly reason: ResultFallbackReason;
      readonly event: RunCompletedEvent | null;
    }
  /** An answer to a WAITING interaction is about to be sent. */
  | { readonly type: 'answer'; readonly interactionId: string; readonly answer: InteractionAnswer }
  /** The attempt stopped short of an outcome (the `failed` effect). */
  | { readonly type: 'error'; readonly error: RunError };

/** Hears a {@link TransportEvent} and the attempt (handle) that reported it, whose `getState()` is current. */
export type TransportListener = (event: TransportEvent, attempt: RunSource<unknown>) => void;

/** The `type` of a {@link TransportEvent}. */
export type TransportEventType = TransportEvent['type'];
