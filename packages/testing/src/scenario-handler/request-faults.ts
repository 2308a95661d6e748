import { RequestError } from './error-response.js';

/** Faults injected into one request by the `x-kestrel-fault` header. */
export interface RequestFaults {
  /** Answer this status with an error body instead of serving the request. */
  readonly httpStatus?: number;
  /** Delay before the response headers. */
  readonly slowStartMs?: number;
  /** Drop the connection right after the event with this seq. */
  readonly dropAt?: number;
  /** End the response cleanly right after the event with this seq. */
  readonly truncateAt?: number;
  /** Go silent (keep-alives included) right after the event with this seq, for `stallMs` or until the client leaves. */
  readonly stallAt?: number;
  readonly stallMs?: number;
  /** Replace the data of the event with this seq by invalid JSON. */
  readonly malformedAt?: number;
}

/** Request header that injects faults, e.g. `x-kestrel-fault: drop-at:5,slow-start:200` (docs/mock-kestrel.md). */
export const FAULT_HEADER = 'x-kestrel-fault';

const SEQ_FAULTS = { 'drop-at': 'dropAt', 'truncate-at': 'truncateAt', 'malformed-at': 'malformedAt' } as const;

function count(text: string | undefined, fault: string): number {
  if (text === undefined || !/^\d+$/.test(text)) {
    throw new RequestError(400, 'invalid_fault', `${FAULT_HEADER}: "${fault}" needs a non-negative integer`);
  }
  return Number(text);
}

/**
 * Reads `x-kestrel-fault`: a comma-separated list of `http-<status>`, `slow-start:<ms>`, `drop-at:<seq>`,
 * `truncate-at:<seq>`, `stall-at:<seq>[:<ms>]`, `malformed-at:<seq>`.
 */
export function parseRequestFaults(header: string | null): RequestFaults {
  const faults: { -readonly [K in keyof RequestFaults]: RequestFaults[K] } = {};
  if (header === null) return faults;
  for (const fault of header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const [name = '', first, second] = fault.split(':').map((part) => part.trim());
    const http = /^http-(\d{3})$/.exec(name);
    if (http !== null && first === undefined) {
      const status = Number(http[1]);
      if (status < 400 || status > 599)
        throw new RequestError(400, 'invalid_fault', `${FAULT_HEADER}: "${fault}" must be a 4xx or 5xx status`);
      faults.httpStatus = status;
    } else if (name === 'slow-start' && second === undefined) {
      faults.slowStartMs = count(first, fault);
    } else if (name === 'stall-at') {
      faults.stallAt = count(first, fault);
      if (second !== undefined) faults.stallMs = count(second, fault);
    } else if (Object.hasOwn(SEQ_FAULTS, name) && second === undefined) {
      faults[SEQ_FAULTS[name as keyof typeof SEQ_FAULTS]] = count(first, fault);
    } else {
      throw new RequestError(
        400,
        'invalid_fault',
        `${FAULT_HEADER}: unknown fault "${fault}". Known: http-<status>, slow-start:<ms>, drop-at:<seq>, truncate-at:<seq>, stall-at:<seq>[:<ms>], malformed-at:<seq>`,
      );
    }
  }
  return faults;
}

/** Request header that sets the pacing between events in ms, e.g. `x-kestrel-delay: 30`. */
export const DELAY_HEADER = 'x-kestrel-delay';

/** Reads `x-kestrel-delay: <ms>`, the per-run pacing override. */
export function parseDelayHeader(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (!/^\d+$/.test(header.trim()))
    throw new RequestError(
      400,
      'invalid_delay',
      `${DELAY_HEADER} must be a non-negative integer (ms), got "${header}"`,
    );
  return Number(header.trim());
}
