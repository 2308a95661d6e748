import { matchKestrelRoute, type KestrelRoute } from '@kestrel/core';
import { RequestError } from './error-response.js';

/**
 * The resource a request names. Anything before `/v1/` is ignored, so the handler also serves behind a
 * prefix (`/api/kestrel/v1/...`). Unknown paths are 404, known paths with the wrong method 405, a malformed id or
 * listing parameter 400.
 */
export function routeOf(request: Request): KestrelRoute {
  const { pathname, searchParams } = new URL(request.url);
  const at = pathname.indexOf('/v1/');
  const match =
    at < 0
      ? ({ ok: false, status: 404 } as const)
      : matchKestrelRoute(request.method, pathname.slice(at).replace(/\/+$/, ''), searchParams);
  if (match.ok) return match.route;
  if (match.status === 400) throw new RequestError(400, match.code, match.message);
  if (match.status === 405)
    throw new RequestError(
      405,
      'method_not_allowed',
      `${request.method} is not allowed on ${pathname} (use ${match.allow})`,
    );
  throw new RequestError(404, 'not_found', `No Kestrel resource at ${request.method} ${pathname}`);
}
