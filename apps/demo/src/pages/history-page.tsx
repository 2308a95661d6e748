import { useKestrelClient } from '@kestrel/react';
import { kestrelKeys, runResultQueryOptions } from '@kestrel/react/query';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeQueryError } from '../describe-query-error.js';
import { readHistory, type HistoryEntry } from '../run-history.js';

function HistoryRow({ entry }: { readonly entry: HistoryEntry }) {
  const client = useKestrelClient();
  const result = useQuery(runResultQueryOptions(client, entry.runId));
  const status = result.isPending ? 'loading' : result.isError ? 'error' : (result.data?.output.status ?? 'running');
  const error = result.isError ? describeQueryError(result.error) : null;
  return (
    <tr data-run-id={entry.runId} data-status={status} data-error={error?.kind}>
      <td>
        <a href={`${entry.page}?run=${encodeURIComponent(entry.runId)}`}>{entry.title}</a>
      </td>
      <td>
        <code>{entry.runId}</code>
      </td>
      <td>{new Date(entry.startedAt).toLocaleTimeString()}</td>
      <td>{error?.label ?? status}</td>
    </tr>
  );
}

/** Runs started in this browser, with their settled results read through TanStack Query. */
export function HistoryPage() {
  const [entries] = useState(readHistory);
  const queryClient = useQueryClient();
  return (
    <main className="page">
      <h1>Run history</h1>
      <button type="button" onClick={() => void queryClient.invalidateQueries({ queryKey: kestrelKeys.all })}>
        Refresh
      </button>
      {entries.length === 0 ? (
        <p>No runs yet. Start one on the RunView or invoice page.</p>
      ) : (
        <table className="history">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Id</th>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <HistoryRow key={entry.runId} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
