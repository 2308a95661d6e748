import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback, type LoopbackServer } from './listen-loopback.js';

/** One request the upstream received, for assertions on what the proxy forwarded. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type UpstreamScript = (request: RecordedRequest, res: ServerResponse) => unknown;

/**
 * A tiny real Kestrel stand-in on 127.0.0.1 for proxy tests: each test scripts the raw bytes it answers with,
 * including faults (a destroyed socket, bad JSON) that a well-behaved server would never produce.
 */
export async function startScriptedUpstream(
  script: UpstreamScript,
): Promise<LoopbackServer & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = await listenOnLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      void script(recorded, res);
    });
  });
  return Object.assign(server, { requests });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
