'use client';
import type { RunBinding, SessionEntry, SessionRetryResult, SessionState } from '@kestrel/core';
import { Fragment, memo, useCallback, useMemo, type Ref } from 'react';
import { useSessionSelector } from '../../use-session-selector.js';
import { ActionButton } from '../action-button.js';
import { failureArgs } from './failure-reason.js';
import { useKestrelLabels } from '../default-labels.js';
import { Run } from '../run-parts.js';
import { answerSummary } from './answer-summary.js';
import type { KestrelLabels } from '../labels.js';
import { entryByKey, useSessionContext, type SessionContextValue } from './session-context.js';

/** Props of one entry of the thread (internal: `Session.Thread` renders them). */
export interface SessionEntryViewProps {
  readonly entryKey: string;
  /** Whether this entry's run is the session's active one: only its prompt takes focus when it waits. */
  readonly active: boolean;
  /** In a virtualised thread: the entry's index (read by the virtualiser) and its offset from the list's top. */
  readonly index?: number;
  readonly offset?: number;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * After Try again or Send again: a message put at the end of the thread is followed there (the thread takes focus);
 * one the session's policy refused (`reject` while a run is in progress) is said why, since nothing else changes.
 */
function afterRetry(
  result: SessionRetryResult,
  { session, scroll }: Pick<SessionContextValue, 'session' | 'scroll'>,
  t: KestrelLabels,
): void {
  if (result.type === 'sent' || result.type === 'queued') return scroll.handOff();
  if (result.type !== 'rejected' || result.reason !== 'run-in-progress') return;
  const { entries, activeKey } = session.getState();
  const active = entries.find((entry) => entry.key === activeKey);
  scroll.announce(active?.status === 'waiting' ? t.sessionWaitingBlocked : t.sessionBusy);
}

const hasRun = (entry: SessionEntry<unknown>) =>
  entry.status === 'live' || entry.status === 'waiting' || entry.status === 'settled' || entry.status === 'interrupted';

/**
 * One message of the person and what came of it: the message, a queued or failed send (with withdraw or send
 * again), each question the run asked and the person's answer to it (the question when it was answered on this
 * page: the listing does not carry questions), then the run as `RunView` shows it (without its own live
 * status: `Session.Status` announces each outcome once for the whole thread). Memoised: a settled entry does not
 * re-render while another run streams.
 */
export const SessionEntryView = memo(function SessionEntryView({
  entryKey,
  active,
  index,
  offset,
  ref,
}: SessionEntryViewProps) {
  const { session, scroll, renderPayload, renderText, tools, renderInteraction } = useSessionContext('Session.Thread');
  const select = useCallback((state: SessionState<unknown>) => entryByKey(state, entryKey), [entryKey]);
  const entry = useSessionSelector(session, select);
  const t = useKestrelLabels();
  const binding = entry?.run;
  // Try again on a FAILED run sends its message again as a new entry at the end: the thread follows it there.
  const run = useMemo<RunBinding<unknown> | undefined>(
    () =>
      binding && {
        ...binding,
        retry: () => afterRetry(session.retry(entryKey), { session, scroll }, t),
      },
    [binding, session, scroll, entryKey, t],
  );
  if (entry === undefined || run === undefined) return null;
  return (
    <article
      ref={ref}
      data-index={index}
      style={
        offset === undefined ? undefined : { position: 'absolute', insetInline: 0, top: 0, translate: `0 ${offset}px` }
      }
      data-kestrel-part="entry"
      data-state={entry.status}
      data-origin={entry.origin}
    >
      <div data-kestrel-part="message">
        <p data-kestrel-heading="">{t.sessionYou}</p>
        <p data-kestrel-text="">{entry.input}</p>
        {entry.status === 'queued' ? (
          <p data-kestrel-note="">
            {t.sessionQueued} {/* Gone with the message it withdraws: focus then moves to the thread (ActionButton). */}
            <ActionButton action="withdraw" label={t.sessionWithdraw} act={() => session.withdraw(entry.key)} />
          </p>
        ) : null}
        {entry.status === 'sending' ? <p data-kestrel-note="">{t.sessionSending}</p> : null}
        {entry.status === 'failed-to-send' ? (
          <p data-kestrel-note="">
            {t.sessionFailedToSend(...failureArgs(entry.error))}{' '}
            <ActionButton
              action="send-again"
              label={t.sessionSendAgain}
              act={() => afterRetry(session.retry(entry.key), { session, scroll }, t)}
            />
          </p>
        ) : null}
      </div>
      {entry.answers.map(({ answer, question, interactionId, attempt }, answerIndex) => (
        <Fragment key={`${interactionId}:${attempt}:${answerIndex}`}>
          {/* What the run said and asked before the answer (once answered, the run's own view moves on). */}
          {question === undefined ? null : (
            <div data-kestrel-part="asked">
              {question.text === null || question.text === '' ? null : (
                <div data-kestrel-text="">
                  {renderText === undefined
                    ? question.text
                    : renderText(question.text, { final: true, streaming: false })}
                </div>
              )}
              <p data-kestrel-question="">{question.interaction.prompt}</p>
            </div>
          )}
          <div data-kestrel-part="answer">
            <p data-kestrel-heading="">{t.sessionYourAnswer}</p>
            <p data-kestrel-text="">{answerSummary(answer, t, question)}</p>
          </div>
        </Fragment>
      ))}
      {entry.answerNotTaken === null ? null : (
        // The person's answer was refused because the wait was over: said, not dropped (Session.Status announces it).
        <div data-kestrel-part="answer" data-state="not-taken">
          <p data-kestrel-heading="">{t.sessionAnswerNotSent}</p>
          <p data-kestrel-text="">{answerSummary(entry.answerNotTaken.answer, t, entry.answerNotTaken.question)}</p>
          <p data-kestrel-note="">{t.answerNotTaken(entry.answerNotTaken.reason)}</p>
        </div>
      )}
      {hasRun(entry) ? (
        <Run.Root
          run={run}
          renderPayload={renderPayload}
          renderText={renderText}
          tools={tools}
          renderInteraction={renderInteraction}
        >
          <Run.Connection />
          <Run.Activity />
          <Run.Outcome />
          <Run.Text />
          <Run.FinishNotice />
          <Run.Copy />
          {/* The entry says itself when an answer came too late, beside that answer. */}
          <Run.Prompt focusOnWait={active} notTakenNote={false} />
          <Run.Payload />
          <Run.Error />
          <Run.ReceivedOutcome />
        </Run.Root>
      ) : null}
    </article>
  );
});
