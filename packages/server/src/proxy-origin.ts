import { errorResponse } from '@kestrel/core/internal';

/**
 * Refuses a state-changing request that a browser sent from another site (CSRF), or returns `undefined`.
 *
 * - `Origin` present: it must be the request URL's own origin or one of `allowed`. Browsers send it on every
 *   cross-origin request and on same-origin POSTs; `Origin: null` (sandboxed frames, `file:`, redirects) is refused.
 * - `Origin` absent: the sender is a server or a script, not a browser, and is allowed; except when
 *   `Sec-Fetch-Site` says a browser sent it from another site (`cross-site`, `same-site`), which is refused.
 *
 * "The request's own origin" is `new URL(request.url).origin`: behind a proxy that rewrites the host or the scheme
 * (TLS terminated in front), list the public origin in `allowedOrigins`.
 */
export function checkOrigin(request: Request, allowed: ReadonlySet<string>): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null) {
    const site = request.headers.get('sec-fetch-site');
    if (site === null || site === 'same-origin' || site === 'none') return undefined;
    return errorResponse(403, 'cross_origin', `A ${site} request without an Origin header may not change a run`);
  }
  if (origin === new URL(request.url).origin || allowed.has(origin)) return undefined;
  return errorResponse(
    403,
    'cross_origin',
    `Requests from ${origin.slice(0, 200)} may not change a run (not this origin, not in allowedOrigins)`,
  );
}
