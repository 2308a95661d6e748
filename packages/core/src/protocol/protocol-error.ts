import type * as z from 'zod/mini';

/** Where a problem sits inside a value, as keys and array indexes, e.g. `['output', 'interaction', 'id']`; `formatPath` prints it. */
export type IssuePath = readonly (string | number)[];

/** Where and why a single value broke the protocol. */
export interface ProtocolIssue {
  readonly path: IssuePath;
  readonly message: string;
}

/** What a `ProtocolError` knows about the offending event (type, seq, field path, issues, raw value); the second argument of its constructor. */
export interface ProtocolErrorDetails {
  /** The event's `type`, when it could be read. */
  readonly eventType?: string | undefined;
  /** The event's `seq`, when it could be read. */
  readonly seq?: number | undefined;
  /** Path of the first offending field inside the event, e.g. `['output', 'assistantText']`. */
  readonly path?: IssuePath | undefined;
  readonly issues?: readonly ProtocolIssue[] | undefined;
  /** What the server sent, untouched, so nothing is lost. */
  readonly raw?: unknown;
}

/**
 * The server sent something the Kestrel protocol does not allow: a known event with wrong fields, a COMPLETED
 * output without assistant text, an event after `run.completed`, and so on.
 *
 * @example
 * try { parseRunEvent(json) } catch (e) { if (e instanceof ProtocolError) console.error(e.seq, e.path, e.message) }
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly kind = 'protocol' as const;
  /** What was wrong, without the location (`expected a non-empty string`); `message` adds event, seq and path. */
  readonly reason: string;
  readonly eventType: string | undefined;
  readonly seq: number | undefined;
  readonly path: IssuePath;
  readonly issues: readonly ProtocolIssue[];
  readonly raw: unknown;

  constructor(reason: string, details: ProtocolErrorDetails = {}) {
    const path = details.path ?? details.issues?.[0]?.path ?? [];
    super(formatMessage(reason, details.eventType, details.seq, path));
    this.reason = reason;
    this.eventType = details.eventType;
    this.seq = details.seq;
    this.path = path;
    this.issues = details.issues ?? [];
    this.raw = details.raw;
  }
}

/** `output.assistantText` style path, with `[0]` for array indexes. */
export function formatPath(path: IssuePath): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function formatMessage(reason: string, eventType: string | undefined, seq: number | undefined, path: IssuePath) {
  let where = eventType === undefined ? 'event' : `"${eventType}" event`;
  if (seq !== undefined) where += ` (seq ${seq})`;
  if (path.length > 0) where += ` at ${formatPath(path)}`;
  return `Protocol error in ${where}: ${reason}`;
}

/** Flattens zod issues, descending into union branches, into path + message pairs. */
export function toProtocolIssues(issues: readonly z.core.$ZodIssue[], prefix: IssuePath = []): ProtocolIssue[] {
  const out: ProtocolIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as (string | number)[])];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that got furthest: the one with the fewest issues.
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
      const nested = toProtocolIssues(best, path);
      out.push(...(nested.length > 0 ? nested : [{ path, message: issue.message }]));
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}
