import type { RunError, RunErrorKind } from '../run/run-state.js';

/** `detached` is the client's own: the caller stopped listening, so the attempt has no outcome to report. */
export type RunClientErrorKind = RunErrorKind | 'detached';

/**
 * Why a run's `result` (or a client call) did not produce a terminal event. `kind` matches `RunState.error.kind`,
 * plus `detached` when the caller detached before the attempt settled. The full `RunError` is in `detail`.
 *
 * @example
 * try { await handle.result } catch (e) { if (e instanceof RunClientError && e.kind === 'http') console.log(e.status) }
 */
export class RunClientError extends Error {
  override readonly name = 'RunClientError';
  readonly kind: RunClientErrorKind;
  /** The error as recorded in `RunState.error`; `null` for `detached`. */
  readonly detail: RunError | null;
  /** HTTP status, for `kind: 'http'`. */
  readonly status: number | null;
  /** The `error.code` of the server's error body, for `kind: 'http'`. */
  readonly code: string | null;
  readonly runId: string | null;

  constructor(
    detail: RunError | { readonly kind: 'detached'; readonly message: string },
    options: { runId?: string | null; cause?: unknown } = {},
  ) {
    super(detail.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = detail.kind;
    this.detail = detail.kind === 'detached' ? null : detail;
    this.status = detail.kind === 'http' ? detail.status : null;
    this.code = detail.kind === 'http' ? detail.code : null;
    this.runId = options.runId ?? null;
  }
}

/** True for errors raised by the run client (`result` rejections and failed client calls). */
export function isRunClientError(error: unknown): error is RunClientError {
  return error instanceof RunClientError;
}
