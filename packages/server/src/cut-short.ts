import type { ServerResponse } from 'node:http';
import { constants, type ServerHttp2Stream } from 'node:http2';

/**
 * Ends a response as a dropped connection, never as a clean end, so the browser (and the run client) resumes
 * instead of taking what came as the whole. On HTTP/2 the stream is reset with INTERNAL_ERROR: `destroy()` would
 * send NO_ERROR, which a browser reads as a clean end. On HTTP/1 the socket is destroyed without an error, which
 * the server would otherwise report as a `clientError` for every dropped stream.
 */
export function cutShort(res: ServerResponse): void {
  const stream = (res as { stream?: ServerHttp2Stream }).stream;
  if (stream === undefined) res.destroy();
  else if (!stream.destroyed) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
}
