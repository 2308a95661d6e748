import { useKestrelClient } from '@kestrel/react';
import { kestrelKeys, runResultQueryOptions } from '@kestrel/react/query';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeQueryError } from '../describe-query-error.js';
import { readHistory, type HistoryEntry } from '../run-history.js';
import { readSessions } from '../session-history.js';

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

/** Conversations started in this browser: each opens on the Chat page, which loads its runs from the listing. */
function SessionList() {
  const [sessions] = useState(readSessions);
  if (sessions.length === 0) return <p>No conversations yet. Start one on the Chat page.</p>;
  return (
    <ul className="sessions">
      {sessions.map((entry) => (
        <li key={entry.sessionId} data-session-id={entry.sessionId}>
          <a href={`/?session=${encodeURIComponent(entry.sessionId)}`}>{entry.title}</a> <code>{entry.sessionId}</code>{' '}
          <span>{new Date(entry.startedAt).toLocaleTimeString()}</span>
        </li>
      ))}
    </ul>
  );
}

/** Conversations and runs started in this browser, the runs' settled results read through TanStack Query. */
export function HistoryPage() {
  const [entries] = useState(readHistory);
  const queryClient = useQueryClient();
  return (
    <main className="page">
      <h1>History</h1>
      <h2>Conversations</h2>
      <SessionList />
      <h2>Runs</h2>
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
