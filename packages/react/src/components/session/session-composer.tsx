'use client';
import type { SessionConcurrency, SessionSendResult, SessionState } from '@kestrel/core';
import { useId, useRef, useState, type FormEvent, type FormHTMLAttributes, type KeyboardEvent, type Ref } from 'react';
import { useSessionSelector } from '../../use-session-selector.js';
import { ActionButton } from '../action-button.js';
import { useActionFailure } from '../action-failure.js';
import { useKestrelLabels } from '../default-labels.js';
import { selectActivity, useSessionContext } from './session-context.js';

const selectActiveKey = (state: SessionState<unknown>) => state.activeKey;

/**
 * What sending now would do, as `data-state`: `ready` sends; `queueing` keeps the message until the run in
 * progress settles; `replacing` cancels that run first (policy `cancel-previous`); `blocked` refuses (policy
 * `reject` while a run is in progress: the send button is disabled, the draft is kept).
 */
export type ComposerState = 'ready' | 'queueing' | 'replacing' | 'blocked';

function composerState(busy: boolean, concurrency: SessionConcurrency): ComposerState {
  if (!busy) return 'ready';
  switch (concurrency) {
    case 'queue':
      return 'queueing';
    case 'cancel-previous':
      return 'replacing';
    case 'reject':
      return 'blocked';
    default:
      return concurrency satisfies never;
  }
}

/** Props of `Session.Composer`: `form` attributes passed through. */
export interface SessionComposerProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  /** The textarea's placeholder. */
  readonly placeholder?: string;
  /** Rows the textarea starts with. Default 2. */
  readonly rows?: number;
  /** Called with what `send` did, after the kit handled it (e.g. to track usage). */
  readonly onSent?: (result: SessionSendResult) => void;
  readonly ref?: Ref<HTMLFormElement>;
}

/**
 * Where the person writes: a labelled textarea (Enter sends, Shift+Enter adds a line, nothing is sent while an
 * input method is composing), a send button, and a Stop button while a run streams (it cancels the run). What
 * sending does while a run is in progress follows the session's `concurrency` (`data-state`, see
 * {@link ComposerState}); a queued message shows in the thread with a way to withdraw it. After a send, focus
 * stays in (or returns to) the textarea and the thread scrolls to the end. `data-kestrel-part="composer"`.
 *
 * @example
 * <Session.Composer placeholder="Ask about an invoice" />
 */
export function SessionComposer({ placeholder, rows = 2, onSent, ref, ...rest }: SessionComposerProps) {
  const { session, scroll } = useSessionContext('Session.Composer');
  const activity = useSessionSelector(session, selectActivity);
  const t = useKestrelLabels();
  const [draft, setDraft] = useState('');
  // A Stop whose cancel request failed (the run goes on) is said, about the entry it was pressed for.
  const activeKey = useSessionSelector(session, selectActiveKey);
  const stoppable = activity === 'live' || activity === 'sending';
  const [stopFailed, actOnStop] = useActionFailure(stoppable ? activeKey : undefined);
  const field = useRef<HTMLTextAreaElement | null>(null);
  const hintId = useId();
  const state = composerState(activity !== 'idle', session.concurrency ?? 'queue');
  const canSend = state !== 'blocked' && draft.trim() !== '';

  const send = () => {
    if (!canSend) return;
    const result = session.send(draft);
    if (result.type !== 'rejected') {
      setDraft('');
      scroll.scrollToLatest();
    }
    field.current?.focus();
    onSent?.(result);
  };

  return (
    <form
      {...rest}
      ref={ref}
      data-kestrel-part="composer"
      data-state={state}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={field}
        value={draft}
        rows={rows}
        placeholder={placeholder}
        aria-label={t.sessionMessage}
        aria-describedby={hintId}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event: KeyboardEvent<HTMLTextAreaElement>) => {
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          send();
        }}
      />
      <p id={hintId} data-kestrel-note="">
        {/* A run waiting on an answer is answered in the thread, not here: say so before a message queues behind it. */}
        {activity === 'waiting'
          ? state === 'blocked'
            ? t.sessionWaitingBlocked
            : t.sessionWaitingHint
          : state === 'blocked'
            ? t.sessionBusy
            : t.sessionComposerHint}
      </p>
      {stopFailed ? (
        <p role="alert" data-kestrel-note="">
          {t.cancelFailed}
        </p>
      ) : null}
      <div data-kestrel-actions="">
        {stoppable ? (
          <ActionButton
            type="button"
            action="cancel"
            label={t.sessionStop}
            act={() =>
              actOnStop(
                () => session.cancel(),
                () => session.getState().activeKey,
              )
            }
          />
        ) : null}
        <button type="submit" data-kestrel-action="send" disabled={!canSend}>
          {t.sessionSend}
        </button>
      </div>
    </form>
  );
}
