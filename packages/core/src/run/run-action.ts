import type { RunEvent } from '../protocol/types.js';
import type { IssuePath } from '../protocol/protocol-error.js';

/** What the client itself saw happen, as opposed to what the server sent. */
export type ClientAction =
  | {
      readonly type: 'client/start-requested';
      /** `start` a new run, `resume` a known one, or `respond` to a WAITING attempt (a new attempt of the same run). */
      readonly mode: 'start' | 'resume' | 'respond';
      readonly runId?: string | undefined;
      readonly lastSeq?: number | undefined;
    }
  | { readonly type: 'client/connected' }
  | {
      readonly type: 'client/reconnecting';
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: string;
    }
  | { readonly type: 'client/connection-lost'; readonly message: string }
  | { readonly type: 'client/stream-ended' }
  | { readonly type: 'client/detached' }
  | { readonly type: 'client/timed-out'; readonly message: string; readonly timeoutMs: number }
  | {
      readonly type: 'client/http-error';
      readonly status: number;
      readonly code: string | null;
      readonly message: string;
    }
  | {
      readonly type: 'client/protocol-error';
      readonly message: string;
      readonly eventType?: string | undefined;
      readonly seq?: number | undefined;
      readonly path?: IssuePath | undefined;
      readonly raw?: unknown;
    };

/** Everything `reduceRun` accepts: protocol events and the client's own happenings. */
export type RunAction = RunEvent | ClientAction;
