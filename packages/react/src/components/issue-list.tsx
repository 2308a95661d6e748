import { formatPath, type PayloadIssue } from '@kestrel/core';

/** Schema issues as a list, each with its path: for an invalid payload and a tool value that failed its schema. */
export function IssueList({ issues }: { issues: readonly PayloadIssue[] }) {
  return (
    <ul>
      {issues.map((issue, index) => (
        <li key={index}>
          {issue.path.length > 0 ? <code>{formatPath(issue.path)}</code> : null}
          {issue.path.length > 0 ? ': ' : null}
          {issue.message}
        </li>
      ))}
    </ul>
  );
}
