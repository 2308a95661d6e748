import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '@kestrel/server/node';
import type { RecordedRequest } from '@kestrel/testing';

/*
 * A bare node:http server on 127.0.0.1 that records every request and answers as a test says: stall after the
 * headers, trickle bytes, redirect, or nothing at all. For the edges the scenario server does not play.
 */

export type Responder = (request: RecordedRequest, res: ServerResponse) => void;

export interface RecordingServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** Answers 404 unless told otherwise. */
export async function startRecordingServer(
  respond: Responder = (_request, res) => res.writeHead(404).end(),
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const loopback = await listenOnLoopback((req, res) => {
    void readBody(req).then((body) => {
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)])),
        body,
      };
      requests.push(request);
      respond(request, res);
    });
  });
  return { url: loopback.url, requests, close: () => loopback.close() };
}

/** Sends the headers (and `firstBytes`, if any), then nothing more, ever. */
export function stallAfterHeaders(contentType: string, firstBytes = ''): Responder {
  return (_request, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
    if (firstBytes !== '') res.write(firstBytes);
  };
}

/** Never answers at all: not even the headers. */
export const stallBeforeHeaders: Responder = () => undefined;

/** Writes `chunk` every `everyMs` until the client goes away; never a line ending unless `chunk` has one. */
export function trickle(contentType: string, chunk: string, everyMs = 5): Responder {
  return (_request, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
    const timer = setInterval(() => res.write(chunk), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** A fetch that sends requests whose path matches `match` to `other` instead of their own origin. */
export function routeTo(other: { readonly url: string }, match: (path: string) => boolean): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input));
    return fetch(match(url.pathname) ? `${other.url}${url.pathname}${url.search}` : url, init);
  };
}
