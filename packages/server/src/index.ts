export type { FetchHandler } from './node-listener.js';
export { errorResponse } from '@kestrel/core/internal';
export { jsonRunResponse } from './json-run-response.js';
export type { JsonRunResponseOptions } from './json-run-response.js';
export { KEEP_ALIVE_INTERVAL_MS, sseResponse } from './sse-response.js';
export type { SSEResponseOptions } from './sse-response.js';
export { createKestrelProxy } from './kestrel-proxy.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_UPSTREAM_BODY_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
} from './proxy-options.js';
export type {
  KestrelBodyRoute,
  KestrelProxyOptions,
  PrepareBodyContext,
  ProxyHookStage,
  StartedRun,
} from './proxy-options.js';
