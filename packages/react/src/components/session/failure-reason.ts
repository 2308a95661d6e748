import type { RunError } from '@kestrel/core';

/**
 * Why a request of the conversation failed, in the terms a person can act on (the `sessionFailedToSend` and
 * `sessionHistoryError` labels word each): `unreachable` (no connection), `timeout`, `unreadable` (the server's reply
 * made no sense), `busy` (`409`: another reply in the conversation is still running), `too-long` (`413`),
 * `too-many` (`429`), `signed-out` (`401`), `forbidden` (`403`), `server` (`5xx`), or `refused` (any other
 * refusal). The developer's message stays on the `RunError` (`entry.error`, `historyError`).
 */
export type FailureReason =
  | 'unreachable'
  | 'timeout'
  | 'unreadable'
  | 'busy'
  | 'too-long'
  | 'too-many'
  | 'signed-out'
  | 'forbidden'
  | 'server'
  | 'refused';

const byStatus: Readonly<Record<number, FailureReason>> = {
  401: 'signed-out',
  403: 'forbidden',
  409: 'busy',
  413: 'too-long',
  429: 'too-many',
};

/** The reason a `RunError` gives (`refused` when there is none). */
export function failureReason(error: RunError | null): FailureReason {
  switch (error?.kind) {
    case undefined:
      return 'refused';
    case 'transport':
      return 'unreachable';
    case 'timeout':
      return 'timeout';
    case 'protocol':
    case 'truncated':
      return 'unreadable';
    case 'http':
      return byStatus[error.status] ?? (error.status >= 500 ? 'server' : 'refused');
    default:
      return error satisfies never;
  }
}

/** What the failure labels take (`sessionFailedToSend`, `sessionHistoryError`): the reason, and the HTTP status if any. */
export function failureArgs(error: RunError | null): readonly [FailureReason, number | null] {
  return [failureReason(error), error?.kind === 'http' ? error.status : null];
}

/** ` (HTTP 502)` for the reasons a status alone tells apart (`server`, `refused`), so support can look it up; else ''. */
export function httpSuffix(reason: FailureReason, httpStatus: number | null): string {
  return (reason === 'server' || reason === 'refused') && httpStatus !== null ? ` (HTTP ${httpStatus})` : '';
}
