import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard handler: the shape of Next.js route handlers, Hono, Remix and `fetch` itself. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          req.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
          req.on('end', () => controller.close());
          req.on('error', (error) => controller.error(error));
        },
      })
    : null;
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body,
    signal,
    // Node's fetch requires this for streaming request bodies.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** Resolves once `res` can take more data, or once it closed (then the next read is cancelled anyway). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(); // 'close' already came and went
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Serves a web-standard handler from `node:http`. Response bodies are streamed chunk by chunk (SSE works) and
 * only as fast as the client reads them, the request's signal aborts when the client goes away, and a body stream
 * that errors destroys the socket, so the browser sees a dropped connection rather than a clean end.
 *
 * @example
 * http.createServer(createNodeListener((request) => new Response('ok'))).listen(3000);
 */
export function createNodeListener(handler: FetchHandler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    let response: Response;
    try {
      response = await handler(toRequest(req, origin, abort.signal));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'internal', message: (error as Error).message } }));
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Backpressure: read on only once the socket took this chunk, so a slow client is not buffered in memory
        // (and a producer that waits for its reader, like the mock Kestrel, really waits).
        if (!res.write(value)) await drained(res);
      }
      res.end();
    } catch {
      // The handler's stream failed (or was told to drop): cut the connection instead of ending it cleanly. Wait
      // a turn first: Node corks response writes until the next tick, and destroying now would discard events
      // that were already written.
      await new Promise<void>((resolve) => setImmediate(resolve));
      res.destroy();
    }
  };
}
