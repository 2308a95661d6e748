/** The resources of PROTOCOL.md section 1, named. */
export type KestrelRoute =
  | { readonly kind: 'start-run'; readonly sessionId: string }
  | { readonly kind: 'answer'; readonly sessionId: string; readonly interactionId: string }
  | { readonly kind: 'resume'; readonly runId: string }
  | { readonly kind: 'cancel'; readonly runId: string }
  | { readonly kind: 'result'; readonly runId: string };

/** What `matchKestrelRoute` found: the route, or the 404/405 to answer (405 names the method to `Allow`). */
export type KestrelRouteMatch =
  | { readonly ok: true; readonly route: KestrelRoute }
  | { readonly ok: false; readonly status: 404 }
  | { readonly ok: false; readonly status: 405; readonly allow: 'GET' | 'POST' };

const patterns: readonly { re: RegExp; method: 'GET' | 'POST'; make: (parts: string[]) => KestrelRoute }[] = [
  { re: /^\/v1\/sessions\/([^/]+)\/runs$/, method: 'POST', make: ([sessionId = '']) => ({ kind: 'start-run', sessionId }) },
  {
    re: /^\/v1\/sessions\/([^/]+)\/interactions\/([^/]+)$/,
    method: 'POST',
    make: ([sessionId = '', interactionId = '']) => ({ kind: 'answer', sessionId, interactionId }),
  },
  { re: /^\/v1\/runs\/([^/]+)\/events$/, method: 'GET', make: ([runId = '']) => ({ kind: 'resume', runId }) },
  { re: /^\/v1\/runs\/([^/]+)\/cancel$/, method: 'POST', make: ([runId = '']) => ({ kind: 'cancel', runId }) },
  { re: /^\/v1\/runs\/([^/]+)\/result$/, method: 'GET', make: ([runId = '']) => ({ kind: 'result', runId }) },
];

/**
 * Matches a method and a path starting at `/v1/` against the Kestrel resources; path parameters are
 * URL-decoded. Servers, proxies and mocks route with it so they agree on the table.
 *
 * @example
 * const match = matchKestrelRoute('GET', '/v1/runs/run_1/result'); // { ok: true, route: { kind: 'result', runId: 'run_1' } }
 */
export function matchKestrelRoute(method: string, path: string): KestrelRouteMatch {
  for (const pattern of patterns) {
    const found = pattern.re.exec(path);
    if (found === null) continue;
    if (method.toUpperCase() !== pattern.method) return { ok: false, status: 405, allow: pattern.method };
    return { ok: true, route: pattern.make(found.slice(1).map((part) => decodeURIComponent(part))) };
  }
  return { ok: false, status: 404 };
}
