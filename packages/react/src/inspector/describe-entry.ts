import type { ClientHappening, TimelineEntry } from './timeline-entry.js';

/** One line for a client happening, e.g. "reconnecting (attempt 2, in 400 ms): connection dropped". */
export function describeHappening(happening: ClientHappening): string {
  switch (happening.type) {
    case 'attempt':
      return happening.lastSeq > 0 ? `${happening.mode} after seq ${happening.lastSeq}` : `${happening.mode}`;
    case 'request':
      return happening.lastEventId === null
        ? `${happening.method} ${happening.path}`
        : `${happening.method} ${happening.path} (Last-Event-ID ${happening.lastEventId})`;
    case 'response':
      return `${happening.status} ${happening.method} ${happening.path}`;
    case 'request-failed':
      return `${happening.method} ${happening.path} failed: ${happening.error.message}`;
    case 'connection-closed':
      return happening.reason === null
        ? `connection ${happening.outcome}`
        : `connection ${happening.outcome}: ${happening.reason}`;
    case 'heartbeat-lost':
      return `heartbeat lost (silent ${happening.timeoutMs} ms)`;
    case 'reconnect-wait':
      return `reconnecting (attempt ${happening.attempt}, in ${happening.delayMs} ms): ${happening.reason}`;
    case 'resume':
      return `resumed after seq ${happening.afterSeq}`;
    case 'result':
      return happening.event === null
        ? `read /result (${happening.reason}): not settled`
        : `read /result (${happening.reason})`;
    case 'answer':
      return `answered ${happening.interactionId} (${happening.answer.kind})`;
    case 'error': {
      const error = happening.error;
      const at = error.kind === 'protocol' && error.seq !== null ? ` at seq ${error.seq}` : '';
      return `error ${error.kind}${at}: ${error.message}`;
    }
    default:
      return happening satisfies never;
  }
}

/** What the type column shows for an entry. */
export function describeEntry(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'event':
      return entry.event.type === 'unknown' ? `${entry.event.unknownType} (unknown)` : entry.event.type;
    case 'invalid':
      return `invalid message: ${entry.problem}`;
    case 'client':
      return describeHappening(entry.happening);
    default:
      return entry satisfies never;
  }
}

/** "+1.234 s" since the start, or an em dash when the time is not known. */
export function formatTime(atMs: number | null): string {
  return atMs === null ? '—' : `+${(atMs / 1000).toFixed(3)} s`;
}

/** "root", a sub-agent's session id, or an empty string for what belongs to no session. */
export function sessionLabel(entry: TimelineEntry, rootSessionId: string | null): string {
  if (entry.kind !== 'event') return '';
  return entry.event.sessionId === rootSessionId ? 'root' : entry.event.sessionId;
}

/** The seq column: the event's seq, the SSE `id` of an invalid message, or a dot. */
export function seqLabel(entry: TimelineEntry): string {
  if (entry.kind === 'event') return String(entry.event.seq);
  if (entry.kind === 'invalid') return entry.message.id ?? '?';
  return '·';
}
