'use client';
import type { RunCompletedEvent } from '@kestrel/core';
import { useKestrelClient } from '@kestrel/react';
import { runResultQueryOptions } from '@kestrel/react/query';
import { useQuery } from '@tanstack/react-query';

/** The settled outcome, status first, as the run said it. */
function Outcome({ event }: { event: RunCompletedEvent }) {
  const { output } = event;
  switch (output.status) {
    case 'COMPLETED':
      return (
        <article data-status="COMPLETED">
          <p>{output.assistantText}</p>
          {output.finalizedPayload !== undefined && output.finalizedPayload !== null && (
            <p>This run also returned a structured result.</p>
          )}
        </article>
      );
    case 'FAILED':
      return (
        <p role="alert" data-status="FAILED">
          Failed: {output.error.message}
        </p>
      );
    case 'CANCELLED':
      return <p data-status="CANCELLED">Cancelled: {output.cancellation.reason}</p>;
    case 'WAITING':
      return <p data-status="WAITING">Waiting for an answer: {output.interaction.prompt}</p>;
    default:
      return output satisfies never;
  }
}

/** A run's result from the query cache the server filled (or, when it could not, from the proxy). */
export function RunResult({ runId }: { runId: string }) {
  const client = useKestrelClient();
  const { data: event, error, isPending } = useQuery(runResultQueryOptions(client, runId));
  if (isPending) return <p aria-busy="true">Reading the result…</p>;
  if (error !== null)
    return (
      <p role="alert">
        Could not read run {runId}: {error.message}
      </p>
    );
  if (event === null) return <p>Run {runId} has not settled yet.</p>;
  return <Outcome event={event} />;
}
