import { kestrelIdProblem } from '../protocol/kestrel-id.js';
import { RunUsageError } from './run-usage-error.js';

/** Which id a path segment holds, as it is named in errors. */
export type ResourceIdName = 'run id' | 'session id' | 'interaction id';

/**
 * An id as one URL path segment. `.`, `..` and the empty string are refused with a {@link RunUsageError}
 * (`invalid-id`) before anything is sent: URL resolution would turn `/v1/runs/../result` into `/v1/result`, a
 * request to a resource nobody asked for.
 */
export function idSegment(name: ResourceIdName, id: string): string {
  const problem = kestrelIdProblem(id);
  if (problem !== undefined) throw new RunUsageError('invalid-id', `${name} ${problem}`);
  return encodeURIComponent(id);
}
