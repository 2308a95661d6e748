import { isFollowing } from '@kestrel/core';
import { useRun } from '@kestrel/react';
import { getScenario, invoiceResponseFormat, invoiceSchema } from '@kestrel/testing';
import { InvoiceTable } from '../invoice-table.js';
import { scenarioInput } from '../scenario-input.js';
import { useInitialRunId, useRunIdInUrl } from '../use-run-id-in-url.js';

/**
 * A custom UI on `useRun` alone: the assistant's explanation beside the app's own invoice table, rendered from
 * the typed `finalizedPayload`. The two outputs are shown separately; neither is read out of the other.
 */
export function InvoicePage() {
  const run = useRun({
    payloadSchema: invoiceSchema,
    responseFormat: invoiceResponseFormat,
    resumeRunId: useInitialRunId(),
  });
  const { state } = run;
  useRunIdInUrl(state.runId, 'Invoice extraction');
  const live = isFollowing(state.phase);
  const explanation =
    state.phase === 'settled' && state.output?.status === 'COMPLETED' ? state.output.assistantText : null;

  return (
    <main className="page">
      <h1>Invoice extraction, built on useRun</h1>
      <div className="toolbar">
        <button
          type="button"
          disabled={live}
          onClick={() => run.start(scenarioInput(getScenario('completed-payload')))}
        >
          Extract invoice-2041.pdf
        </button>
        <button
          type="button"
          disabled={live}
          onClick={() => run.start(scenarioInput(getScenario('completed-invalid-payload')))}
        >
          Extract a damaged invoice
        </button>
        {live ? (
          <button type="button" onClick={() => void run.cancel()}>
            Stop
          </button>
        ) : null}
      </div>
      <div className="split" data-testid="invoice-run" data-phase={state.phase} data-status={state.status ?? undefined}>
        <section aria-labelledby="explanation-heading">
          <h2 id="explanation-heading">What the assistant says</h2>
          {state.progress !== null && live ? (
            <progress value={state.progress.fraction ?? undefined} max={1} aria-label={state.progress.label} />
          ) : null}
          {explanation !== null ? (
            <p data-testid="explanation">{explanation}</p>
          ) : live ? (
            <p className="draft" aria-busy="true">
              {state.draftText || 'Reading the invoice…'}
            </p>
          ) : state.phase === 'error' ? (
            <p role="alert">No result: {state.error?.message}</p>
          ) : state.phase === 'settled' ? (
            <p>The run ended {state.status}.</p>
          ) : (
            <p>Pick an invoice to extract.</p>
          )}
        </section>
        <section aria-labelledby="invoice-heading">
          <h2 id="invoice-heading">Extracted invoice</h2>
          {state.payload?.status === 'valid' ? (
            <InvoiceTable invoice={state.payload.value} />
          ) : state.payload?.status === 'invalid' ? (
            <div role="alert" data-testid="invoice-invalid">
              <p>The payload does not match the invoice schema:</p>
              <ul>
                {state.payload.issues.map((issue) => (
                  <li key={`${issue.path.join('.')}:${issue.message}`}>
                    <code>{issue.path.join('.') || '(root)'}</code>: {issue.message}
                  </li>
                ))}
              </ul>
              <pre>{JSON.stringify(state.payload.raw, null, 2)}</pre>
            </div>
          ) : (
            <p>{live ? 'Waiting for the structured result…' : 'Nothing extracted yet.'}</p>
          )}
        </section>
      </div>
    </main>
  );
}
