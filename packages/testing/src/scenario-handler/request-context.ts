import type { ResolvedHandlerOptions } from './options.js';
import type { RequestFaults } from './request-faults.js';
import type { RunRegistry } from './run-registry.js';

/** Everything a route needs to answer one request. */
export interface RequestContext {
  readonly request: Request;
  readonly options: ResolvedHandlerOptions;
  readonly registry: RunRegistry;
  readonly faults: RequestFaults;
  /** The request's `x-kestrel-delay`, when given. */
  readonly delayMs: number | undefined;
  /** Registers an open connection so `handler.close()` can end it; returns the unregister function. */
  readonly track: (abort: AbortController) => () => void;
}
