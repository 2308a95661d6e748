/**
 * The TanStack Query keys this kit reads and writes. Settled results live under `kestrelKeys.result(runId)`, so a
 * history list that asks for them finds what a live run already wrote.
 *
 * | key | holds |
 * |---|---|
 * | `['kestrel']` | everything of this kit (invalidate it to refetch all) |
 * | `['kestrel', 'result']` | every run result (`queryClient.getQueriesData({ queryKey: kestrelKeys.results() })`) |
 * | `['kestrel', 'result', runId]` | one run's `run.completed` event, or `null` while it has not settled |
 * | `['kestrel', 'json-run']` | the mutation key of the JSON route |
 * | `['kestrel', 'session']` | every session listing |
 * | `['kestrel', 'session', sessionId]` | one session's runs as infinite-query pages (`sessionRunsQueryOptions`) |
 *
 * @example
 * queryClient.getQueryData(kestrelKeys.result('run_42'));
 */
export const kestrelKeys = {
  all: ['kestrel'] as const,
  results: () => ['kestrel', 'result'] as const,
  result: (runId: string) => ['kestrel', 'result', runId] as const,
  jsonRun: () => ['kestrel', 'json-run'] as const,
  sessions: () => ['kestrel', 'session'] as const,
  session: (sessionId: string) => ['kestrel', 'session', sessionId] as const,
};
