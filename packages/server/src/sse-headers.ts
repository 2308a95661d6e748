import { toHeaders, type KestrelHeaders } from '@kestrel/core';

/** Response headers of an event stream: no caching, no proxy buffering (nginx), UTF-8. */
export function sseHeaders(extra?: KestrelHeaders): Headers {
  const headers = toHeaders(extra);
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-cache, no-transform');
  headers.set('x-accel-buffering', 'no');
  return headers;
}
