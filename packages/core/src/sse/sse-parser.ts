import type { SSEMessage } from './sse-message.js';
import { ProtocolError } from '../protocol/protocol-error.js';

/** The default longest SSE line or message (16 MiB): one event may legitimately hold a 10 MB `assistantText`. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const LF = 10;
const SPACE = 32;

/**
 * An SSE line parser over already-decoded text, after the WHATWG event-stream rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation). Returns `feed`;
 * each complete message goes to `onMessage` as `{ id, event, data }`, each comment to `onComment` without its
 * colon and leading whitespace. A line or message the text ends in the middle of waits for the next `feed`, so
 * a message cut off by the end of the stream is never dispatched. The leading BOM is decodeSSEBatches' to strip.
 *
 * Kept from eventsource-parser 3.1.1, which this replaces (issue 8: 1.2 kB gz on the `useRun` path), so no
 * reader changes: `id` and `event` are per message (no "last event ID" carried over; the run client tracks
 * resume itself), an empty `event:` reads as undefined, and both keys are always present.
 *
 * A line, or a message's joined data, longer than `maxMessageBytes` throws a {@link ProtocolError} from `feed`
 * naming the size and the limit, so a server cannot grow memory without bound (a line that never ends, included).
 * Sizes are counted in decoded UTF-16 units, each at least one byte on the wire: cheap (a length read per line
 * and per chunk, never per character), and never more than the bytes received.
 *
 * `onBoundary`, when given, hears the index in the fed text just past each line after which no message is in
 * progress (a blank line, or a comment between messages): the text before it can be relayed whole without
 * splitting a message (the proxy forwards each upstream chunk up to there, validated, in one write).
 * `onNoData`, when given, hears each block that set fields (`id:`, `event:`, `retry:`, ...) but no `data:`, with its
 * `id`: not a message, so nothing is dispatched, yet a browser's `EventSource` would take that id as its last one.
 *
 * @example
 * const feed = createSSEParser((message) => queue.push(message));
 * feed(decoder.decode(bytes, { stream: true }));
 */
export function createSSEParser(
  onMessage: (message: SSEMessage) => void,
  onComment?: (comment: string) => void,
  maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES,
  onBoundary?: (index: number) => void,
  onNoData?: (id: string | undefined) => void,
): (text: string) => void {
  // Undefined until the first data line: the spec's "data buffer empty" test without a counter.
  let data: string | undefined;
  let event: string | undefined;
  let id: string | undefined;
  // A field other than data was read since the last blank line: a message is in progress even without data.
  let fields = false;
  // The unfinished line so far. Appends build a rope, so a long line over many chunks is not re-copied per chunk.
  let pending = '';
  // The last text ended in CR: an LF opening the next text finishes that CRLF rather than making a blank line.
  let afterCR = false;

  function limit(size: number): void {
    if (size > maxMessageBytes)
      throw new ProtocolError(`SSE message of ${size}+ bytes is over maxMessageBytes (${maxMessageBytes})`);
  }

  function line(text: string, start: number, end: number): void {
    limit(end - start);
    if (start === end) {
      if (data !== undefined) onMessage({ id, event, data });
      else if (fields) onNoData?.(id);
      data = event = id = undefined;
      fields = false;
      return;
    }
    // Nearly every line is `event:`, `id:` or `data:`: read those in place, without slicing the line to find its colon.
    const known = text.startsWith('data:', start)
      ? 'data'
      : text.startsWith('event:', start)
        ? 'event'
        : text.startsWith('id:', start)
          ? 'id'
          : '';
    if (known !== '') {
      const from = start + known.length + 1;
      return field(known, text.slice(text.charCodeAt(from) === SPACE ? from + 1 : from, end));
    }
    const whole = text.slice(start, end);
    // Sliced first, so a line without a colon cannot send indexOf on through the rest of the chunk.
    const colon = whole.indexOf(':');
    if (colon === 0) return onComment?.(whole.slice(1).trimStart());
    if (colon < 0) return field(whole, '');
    field(whole.slice(0, colon), whole.slice(whole.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1));
  }

  function field(name: string, value: string): void {
    if (name !== 'data') fields = true;
    if (name === 'data') {
      data = data === undefined ? value : `${data}\n${value}`;
      limit(data.length);
    } else if (name === 'event') event = value || undefined;
    else if (name === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields: ignored, as the spec allows (the run client has its own backoff).
  }

  return (text) => {
    // Half a multi-byte character decodes to '': leave the CR question open for the text that follows.
    if (text === '') return;
    let start = afterCR && text.charCodeAt(0) === LF ? 1 : 0;
    afterCR = false;
    // The LF of a CRLF cut from its CR: past it is a boundary too (a relay holding it would never forward it).
    if (start && onBoundary !== undefined && data === undefined && !fields) onBoundary(1);
    // Two indexOf cursors, each moved only when passed: no per-character loop, no regex.
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (lf >= 0 || cr >= 0) {
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      if (pending === '') line(text, start, end);
      else {
        const joined = pending + text.slice(start, end);
        pending = '';
        line(joined, 0, joined.length);
      }
      start = end + 1;
      if (end === cr) {
        if (text.charCodeAt(start) === LF) start++;
        // A CR ending the text ends its line now, so a CR-only server's message is not held back a chunk.
        else if (start === text.length) afterCR = true;
        cr = text.indexOf('\r', start);
      }
      if (onBoundary !== undefined && data === undefined && !fields) onBoundary(start);
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
    }
    if (start < text.length) {
      pending += start === 0 ? text : text.slice(start);
      // Checked per chunk: a line that never ends stops here, however slowly it trickles in.
      limit(pending.length);
    }
  };
}
