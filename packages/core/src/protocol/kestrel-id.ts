/* One rule for ids in request paths, shared by route matching (servers, the proxy) and the client. */

/**
 * Why `id` cannot name a Kestrel resource, or `undefined` when it can. An empty id, `.` or `..` would make the
 * request path name another resource (`/v1/runs/../result` is `/v1/result`), so no request may be built with one.
 *
 * @example
 * kestrelIdProblem('..'); // 'is ".." (a path segment that names another resource)'
 */
export function kestrelIdProblem(id: string): string | undefined {
  if (id === '') return 'is empty';
  if (id === '.' || id === '..') return `is "${id}" (a path segment that names another resource)`;
  return undefined;
}
