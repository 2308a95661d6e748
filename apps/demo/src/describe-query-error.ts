import { isRunClientError, type RunClientErrorKind } from '@kestrel/core';

/** What a failed result query ran into: its kind (for `data-error`), and a label that says so. */
export interface QueryErrorDescription {
  readonly kind: RunClientErrorKind | 'other';
  readonly label: string;
}

/**
 * Names a failed result query by what it ran into: the server's error, a protocol error (with seq and field), a
 * dropped connection, a timeout. None of them reads as "not found", and none as an outcome.
 */
export function describeQueryError(error: Error): QueryErrorDescription {
  if (!isRunClientError(error)) return { kind: 'other', label: `Could not read the result (${error.message})` };
  const { kind, message } = error;
  switch (kind) {
    case 'http':
      return { kind, label: `Server error (${message})` };
    case 'protocol':
      return { kind, label: `Protocol error: the server's answer breaks the protocol (${message})` };
    case 'transport':
      return { kind, label: `Connection failed (${message})` };
    case 'timeout':
      return { kind, label: `No answer in time (${message})` };
    case 'truncated':
      return { kind, label: `Answer cut short (${message})` };
    case 'detached':
      return { kind, label: `Stopped reading (${message})` };
    default:
      return kind satisfies never;
  }
}
