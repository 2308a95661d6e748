/** The resources of PROTOCOL.md section 1. */
export type Route =
  | { readonly name: 'start'; readonly sessionId: string }
  | { readonly name: 'answer'; readonly sessionId: string; readonly interactionId: string }
  | { readonly name: 'events'; readonly runId: string }
  | { readonly name: 'cancel'; readonly runId: string }
  | { readonly name: 'result'; readonly runId: string };

const patterns: readonly { method: string; pattern: RegExp; route: (parts: string[]) => Route }[] = [
  { method: 'POST', pattern: /^\/v1\/sessions\/([^/]+)\/runs$/, route: ([sessionId = '']) => ({ name: 'start', sessionId }) },
  {
    method: 'POST',
    pattern: /^\/v1\/sessions\/([^/]+)\/interactions\/([^/]+)$/,
    route: ([sessionId = '', interactionId = '']) => ({ name: 'answer', sessionId, interactionId }),
  },
  { method: 'GET', pattern: /^\/v1\/runs\/([^/]+)\/events$/, route: ([runId = '']) => ({ name: 'events', runId }) },
  { method: 'POST', pattern: /^\/v1\/runs\/([^/]+)\/cancel$/, route: ([runId = '']) => ({ name: 'cancel', runId }) },
  { method: 'GET', pattern: /^\/v1\/runs\/([^/]+)\/result$/, route: ([runId = '']) => ({ name: 'result', runId }) },
];

/**
 * Finds the resource a path names. Anything before `/v1/` is ignored, so the handler also serves behind a
 * prefix (`/api/kestrel/v1/...`). Returns `undefined` for an unknown path and `'method'` for a known path
 * asked with the wrong method.
 */
export function matchRoute(method: string, pathname: string): Route | 'method' | undefined {
  const at = pathname.indexOf('/v1/');
  if (at < 0) return undefined;
  const path = pathname.slice(at).replace(/\/+$/, '');
  let wrongMethod = false;
  for (const candidate of patterns) {
    const match = candidate.pattern.exec(path);
    if (match === null) continue;
    if (candidate.method !== method.toUpperCase()) {
      wrongMethod = true;
      continue;
    }
    return candidate.route(match.slice(1).map((part) => decodeURIComponent(part)));
  }
  return wrongMethod ? 'method' : undefined;
}
