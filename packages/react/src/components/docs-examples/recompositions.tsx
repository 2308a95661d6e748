/*
 * The three recompositions shown in docs/components.md, verbatim between the region markers: recompositions.test.tsx
 * renders them and fails when the documentation's copy drifts from this type-checked one.
 */
import type { RunBinding } from '@kestrel/core';
import type { Invoice } from '@kestrel/testing';
import { useRunSelector } from '../../use-run-selector.js';
import { useRunContext } from '../run-context.js';
import { Run } from '../run-parts.js';
import { InvoiceTable } from '../stories/support/invoice-table.js';

// #region reordered
export function AnswerFirst({ run }: { run: RunBinding }) {
  return (
    <Run.Root run={run} className="answer-first">
      <Run.Status className="sr-only" />
      <header>
        <Run.Connection />
        <Run.Cancel />
      </header>
      <Run.Text />
      <Run.FinishNotice />
      <Run.Payload />
      <Run.Outcome />
      <Run.Prompt />
      <Run.Error />
      <Run.ReceivedOutcome />
      <Run.Activity />
    </Run.Root>
  );
}
// #endregion reordered

// #region custom-outcome
function StoppedBanner() {
  const output = useRunSelector(useRunContext(), (state) => (state.phase === 'settled' ? state.output : null));
  if (output?.status === 'FAILED') {
    return (
      <div role="group" aria-label="Run failed" className="banner banner-danger">
        <strong>Something went wrong.</strong> {output.error.message}
        <Run.Retry asChild>
          <button type="button" className="banner-action">
            Run it again
          </button>
        </Run.Retry>
      </div>
    );
  }
  if (output?.status === 'CANCELLED') return <div className="banner">Stopped. {output.cancellation.reason}</div>;
  return null;
}

export function WithBanner({ run }: { run: RunBinding }) {
  return (
    <Run.Root run={run}>
      <Run.Status />
      <Run.Connection />
      <StoppedBanner />
      <Run.Text />
      <Run.Payload />
      <Run.Prompt />
      <Run.Error />
      <Run.Cancel />
    </Run.Root>
  );
}
// #endregion custom-outcome

// #region payload-first
export function InvoiceFirst({ run }: { run: RunBinding<Invoice> }) {
  return (
    <Run.Root run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />}>
      <Run.Status />
      <Run.Connection />
      <Run.Payload />
      <Run.Text />
      <Run.FinishNotice />
      <Run.Outcome />
      <Run.Error />
      <Run.Activity />
      <Run.Cancel />
    </Run.Root>
  );
}
// #endregion payload-first
