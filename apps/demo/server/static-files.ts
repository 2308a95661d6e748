import type { FetchHandler } from '@kestrel/server';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Serves a built single-page app: files below `root`, and `index.html` for any path without an extension
 * (the demo's pages and their `?run=` links).
 */
export function staticFiles(root: string): FetchHandler {
  const base = normalize(root + sep);
  return async (request) => {
    const { pathname } = new URL(request.url);
    const wanted = extname(pathname) === '' ? '/index.html' : decodeURIComponent(pathname);
    const file = normalize(join(base, wanted));
    if (!file.startsWith(base)) return new Response('Forbidden', { status: 403 });
    try {
      const body = await readFile(file);
      const immutable = wanted.startsWith('/assets/');
      return new Response(body, {
        headers: {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
      });
    } catch {
      return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
  };
}
