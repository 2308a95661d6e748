/** The resources of PROTOCOL.md section 1, as the proxy forwards them. */
export type KestrelRoute =
  | { readonly kind: 'start-run'; readonly sessionId: string }
  | { readonly kind: 'answer'; readonly sessionId: string; readonly interactionId: string }
  | { readonly kind: 'resume'; readonly runId: string }
  | { readonly kind: 'cancel'; readonly runId: string }
  | { readonly kind: 'result'; readonly runId: string };

export type RouteMatch =
  | { readonly ok: true; readonly route: KestrelRoute }
  | { readonly ok: false; readonly status: 404 }
  | { readonly ok: false; readonly status: 405; readonly allow: string };

const patterns: readonly { re: RegExp; method: 'GET' | 'POST'; make: (p: string[]) => KestrelRoute }[] = [
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

/** Matches a path (below the proxy's base path) and method against the Kestrel resources. */
export function matchKestrelRoute(method: string, path: string): RouteMatch {
  for (const pattern of patterns) {
    const found = pattern.re.exec(path);
    if (found === null) continue;
    if (method !== pattern.method) return { ok: false, status: 405, allow: pattern.method };
    return { ok: true, route: pattern.make(found.slice(1)) };
  }
  return { ok: false, status: 404 };
}
