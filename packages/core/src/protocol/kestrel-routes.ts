import { kestrelIdProblem } from './kestrel-id.js';
/** The resources of docs/protocol.md#resources (the session listing included), named. */
export type KestrelRoute =
  | { readonly kind: 'start-run'; readonly sessionId: string }
  | { readonly kind: 'answer'; readonly sessionId: string; readonly interactionId: string }
  | { readonly kind: 'resume'; readonly runId: string }
  | { readonly kind: 'cancel'; readonly runId: string }
  | { readonly kind: 'result'; readonly runId: string }
  /** `GET /v1/sessions/{sessionId}/runs`: a page of the session's runs, older than `before`, at most `limit` (1 to 100). */
  | { readonly kind: 'list-runs'; readonly sessionId: string; readonly before?: string; readonly limit?: number };

/**
 * What `matchKestrelRoute` found: the route, or the error to answer. 400 is a path or query no server may act on
 * (malformed percent-encoding, an id that is empty, `.` or `..`, a bad listing parameter), with a message naming it;
 * 405 names the methods for `Allow`.
 */
export type KestrelRouteMatch =
  | { readonly ok: true; readonly route: KestrelRoute }
  | {
      readonly ok: false;
      readonly status: 400;
      readonly code: 'invalid_path' | 'invalid_query';
      readonly message: string;
    }
  | { readonly ok: false; readonly status: 404 }
  | { readonly ok: false; readonly status: 405; readonly allow: 'GET' | 'POST' | 'GET, POST' };

/** The longest `before` cursor a listing accepts: cursors are opaque, but nothing unbounded is forwarded. */
export const MAX_CURSOR_LENGTH = 512;
/** The largest page a listing may ask for (docs/protocol.md#a-sessions-runs). */
export const MAX_LIST_LIMIT = 100;

type Method = 'GET' | 'POST';
type Made = { ok: true; route: KestrelRoute } | { ok: false; message: string };
interface Pattern {
  readonly re: RegExp;
  readonly names: readonly string[];
  readonly methods: Partial<Record<Method, (ids: string[], query: URLSearchParams) => Made>>;
}

const route = (value: KestrelRoute): Made => ({ ok: true, route: value });

function listRuns(sessionId: string, query: URLSearchParams): Made {
  const one = (name: string): { ok: true; value: string | undefined } | { ok: false; message: string } => {
    const values = query.getAll(name);
    // Two values could be read two ways upstream; refuse instead of picking one.
    if (values.length > 1) return { ok: false, message: `"${name}" is given ${values.length} times` };
    return { ok: true, value: values[0] };
  };
  const before = one('before');
  if (!before.ok) return before;
  const limit = one('limit');
  if (!limit.ok) return limit;
  if (before.value !== undefined && (before.value === '' || before.value.length > MAX_CURSOR_LENGTH)) {
    return { ok: false, message: `"before" must be a cursor of 1 to ${MAX_CURSOR_LENGTH} characters` };
  }
  let pageSize: number | undefined;
  if (limit.value !== undefined) {
    pageSize = /^[0-9]{1,3}$/.test(limit.value) ? Number(limit.value) : Number.NaN;
    if (!(pageSize >= 1 && pageSize <= MAX_LIST_LIMIT)) {
      return {
        ok: false,
        message: `"limit" must be an integer from 1 to ${MAX_LIST_LIMIT}, got "${limit.value.slice(0, 20)}"`,
      };
    }
  }
  return route({
    kind: 'list-runs',
    sessionId,
    ...(before.value === undefined ? {} : { before: before.value }),
    ...(pageSize === undefined ? {} : { limit: pageSize }),
  });
}

const patterns: readonly Pattern[] = [
  {
    re: /^\/v1\/sessions\/([^/]*)\/runs$/,
    names: ['session id'],
    methods: {
      GET: ([sessionId = ''], query) => listRuns(sessionId, query),
      POST: ([sessionId = '']) => route({ kind: 'start-run', sessionId }),
    },
  },
  {
    re: /^\/v1\/sessions\/([^/]*)\/interactions\/([^/]*)$/,
    names: ['session id', 'interaction id'],
    methods: { POST: ([sessionId = '', interactionId = '']) => route({ kind: 'answer', sessionId, interactionId }) },
  },
  {
    re: /^\/v1\/runs\/([^/]*)\/events$/,
    names: ['run id'],
    methods: { GET: ([runId = '']) => route({ kind: 'resume', runId }) },
  },
  {
    re: /^\/v1\/runs\/([^/]*)\/cancel$/,
    names: ['run id'],
    methods: { POST: ([runId = '']) => route({ kind: 'cancel', runId }) },
  },
  {
    re: /^\/v1\/runs\/([^/]*)\/result$/,
    names: ['run id'],
    methods: { GET: ([runId = '']) => route({ kind: 'result', runId }) },
  },
];

function decodeIds(
  parts: readonly string[],
  names: readonly string[],
): { ok: true; ids: string[] } | { ok: false; message: string } {
  const ids: string[] = [];
  for (const [index, part] of parts.entries()) {
    const name = names[index] ?? 'id';
    let id: string;
    try {
      id = decodeURIComponent(part);
    } catch {
      return { ok: false, message: `The ${name} "${part.slice(0, 40)}" has a malformed percent-encoding` };
    }
    const problem = kestrelIdProblem(id);
    if (problem !== undefined) return { ok: false, message: `The ${name} ${problem}` };
    ids.push(id);
  }
  return { ok: true, ids };
}

/**
 * Matches a method and a path starting at `/v1/` against the Kestrel resources; path parameters are URL-decoded
 * and checked (see {@link kestrelIdProblem}). `query` is read only where docs/protocol.md#resources documents parameters (the
 * session listing's `before` and `limit`, validated); anything else in it is ignored, so a caller that builds the
 * upstream request from the route forwards only what was checked. Servers, proxies and mocks route with it so they
 * agree on the table.
 *
 * @example
 * const match = matchKestrelRoute('GET', '/v1/runs/run_1/result'); // { ok: true, route: { kind: 'result', runId: 'run_1' } }
 * matchKestrelRoute('GET', '/v1/sessions/ses_1/runs', new URLSearchParams('limit=10')); // list-runs, limit 10
 */
export function matchKestrelRoute(
  method: string,
  path: string,
  query: URLSearchParams = new URLSearchParams(),
): KestrelRouteMatch {
  for (const pattern of patterns) {
    const found = pattern.re.exec(path);
    if (found === null) continue;
    const upper = method.toUpperCase();
    const make = Object.hasOwn(pattern.methods, upper) ? pattern.methods[upper as Method] : undefined;
    if (make === undefined) {
      const allow = Object.keys(pattern.methods).sort().join(', ') as 'GET' | 'POST' | 'GET, POST';
      return { ok: false, status: 405, allow };
    }
    const ids = decodeIds(found.slice(1), pattern.names);
    if (!ids.ok) return { ok: false, status: 400, code: 'invalid_path', message: ids.message };
    const made = make(ids.ids, query);
    return made.ok ? made : { ok: false, status: 400, code: 'invalid_query', message: made.message };
  }
  return { ok: false, status: 404 };
}
