/*
 * The custom approval of docs/components.md and the hook-only prompt of docs/react.md, verbatim between the region
 * markers: custom-interaction.test.tsx renders them and fails when a copy in the docs drifts from this type-checked one.
 */
import type { ApprovalInteraction, RunBinding } from '@kestrel/core';
import { useId, useState } from 'react';
import { RunView } from '../run-view.js';
import { useInteraction, type InteractionController, type RenderInteraction } from '../use-interaction.js';

// #region custom-approval
function EmailApproval({ approval }: { approval: InteractionController<ApprovalInteraction> }) {
  const [comment, setComment] = useState('');
  const details = approval.interaction.details; // unknown: whatever the agent sent, so check it
  const subject = typeof details === 'object' && details !== null && 'subject' in details ? details.subject : null;
  const busy = approval.state === 'submitting';
  const send = (approved: boolean) =>
    void approval.answer(comment === '' ? { kind: 'approval', approved } : { kind: 'approval', approved, comment });
  return (
    <div className="email-preview">
      {typeof subject === 'string' ? <p>Subject: {subject}</p> : null}
      <label>
        Comment (optional)
        <textarea value={comment} onChange={(event) => setComment(event.target.value)} />
      </label>
      <button type="button" aria-disabled={busy} onClick={() => send(true)}>
        {busy ? 'Sending…' : 'Send'}
      </button>
      <button type="button" aria-disabled={busy} onClick={() => send(false)}>
        Discard
      </button>
    </div>
  );
}

// Approvals your way; `undefined` keeps the kit's form for every other kind.
const renderInteraction: RenderInteraction = (waiting) =>
  waiting.kind === 'approval' ? <EmailApproval approval={waiting} /> : undefined;

export function Assistant({ run }: { run: RunBinding }) {
  return <RunView run={run} renderInteraction={renderInteraction} />;
}
// #endregion custom-approval

/** The docs' renderer, for the Custom approval story. */
export { renderInteraction as renderEmailApproval };

// #region hook-only
export function ApprovalBar({ run }: { run: RunBinding }) {
  const waiting = useInteraction(run); // null unless the run is WAITING
  const questionId = useId();
  if (waiting?.kind !== 'approval') return null;
  const busy = waiting.state === 'submitting';
  return (
    <div role="group" aria-labelledby={questionId} aria-busy={busy}>
      <p id={questionId}>{waiting.interaction.prompt}</p>
      {waiting.state === 'expired' ? <p>This request has expired.</p> : null}
      {waiting.rejection === null ? null : (
        <p role="alert">
          {waiting.rejection.kind === 'unsent' ? 'Not sent, try again: ' : 'Refused: '}
          {waiting.rejection.message}
        </p>
      )}
      <button
        type="button"
        aria-disabled={busy}
        onClick={() => void waiting.answer({ kind: 'approval', approved: true })}
      >
        Approve
      </button>
      <button
        type="button"
        aria-disabled={busy}
        onClick={() => void waiting.answer({ kind: 'approval', approved: false })}
      >
        Reject
      </button>
    </div>
  );
}
// #endregion hook-only
