export { kestrelKeys } from './kestrel-keys.js';
export { runMutationOptions } from './run-mutation-options.js';
export type { RunMutationVariables } from './run-mutation-options.js';
export { runResultQueryOptions } from './run-result-query-options.js';
export { useSyncRunToQueryCache } from './use-sync-run-to-query-cache.js';
export { writeRunResult } from './write-run-result.js';
export { sessionRunsQueryOptions } from './session-runs-query-options.js';
export type { SessionRunsData } from './session-runs-query-options.js';
export { writeSessionPage } from './write-session-page.js';
