'use client';
import type { SessionState } from '@kestrel/core';
import { useEffect, useRef, type HTMLAttributes, type Ref } from 'react';
import { useSessionSelector } from '../../use-session-selector.js';
import { ActionButton } from '../action-button.js';
import { useKestrelLabels } from '../default-labels.js';
import { failureArgs } from './failure-reason.js';
import { useSessionContext } from './session-context.js';

const selectHistory = (state: SessionState<unknown>) => state.history;
const selectNamed = (state: SessionState<unknown>) => state.sessionId !== null;
const selectHistoryError = (state: SessionState<unknown>) => state.historyError;
const selectHasEntries = (state: SessionState<unknown>) => state.entries.length > 0;

/** Props of `Session.LoadOlder`: `div` attributes passed through. */
export interface SessionLoadOlderProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Load the next page by itself when the button scrolls into view. Default true. */
  readonly auto?: boolean;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The top of the thread (put it inside `Session.Thread`): a "Load older messages" button while older runs exist
 * (clicked, or scrolled into view with `auto`, but not by Tab: a focused button waits for Enter), "Loading…" while a
 * page is on its way (the button stays, `aria-disabled`, so focus stays on it), the start of the
 * conversation once every run is loaded, a note when the server keeps no history or knows no such conversation (the
 * next message then starts a new one), or why the last page failed
 * with the button to try again. The thread keeps what the person reads in place as the page arrives.
 * `data-kestrel-part="load-older"`, `data-state` the session's history status.
 *
 * @example
 * <Session.Thread><Session.LoadOlder auto={false} /></Session.Thread>
 */
export function SessionLoadOlder({ auto = true, ref, ...rest }: SessionLoadOlderProps) {
  const { session } = useSessionContext('Session.LoadOlder');
  const history = useSessionSelector(session, selectHistory);
  const named = useSessionSelector(session, selectNamed);
  const failure = useSessionSelector(session, selectHistoryError);
  const hasEntries = useSessionSelector(session, selectHasEntries);
  const t = useKestrelLabels();
  const button = useRef<HTMLButtonElement | null>(null);

  useEffect(() => {
    const target = button.current;
    if (!auto || history !== 'more' || target === null || typeof IntersectionObserver === 'undefined') return;
    // Observed anew after each page: if the button is still in view (a short page), the next one loads too.
    // Not while the keyboard is on it: Tab scrolls a focused control into view, and each Tab would load another
    // page. A click's focus (not :focus-visible) does not stop it.
    const observer = new IntersectionObserver((records) => {
      if (records.some((record) => record.isIntersecting) && !target.matches(':focus-visible'))
        void session.loadOlder();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [auto, history, session]);

  // Kept (busy) while the page it asked for loads, so a keyboard user's focus stays on it for the next page.
  const busy = history === 'loading' && hasEntries;
  const offer = busy || history === 'more' || history === 'error' || (history === 'unknown' && named);
  return (
    <div {...rest} ref={ref} data-kestrel-part="load-older" data-state={history}>
      {/* An alert: the person who asked for the page, focus still on the button, hears that it failed. */}
      {history === 'error' ? (
        <p role="alert" data-kestrel-note="">
          {t.sessionHistoryError(...failureArgs(failure))}
        </p>
      ) : null}
      {history === 'loading' ? <p data-kestrel-note="">{t.sessionLoadingOlder}</p> : null}
      {/* An empty thread says so itself ("No messages yet"): the start of nothing is not news. */}
      {history === 'complete' && hasEntries ? <p data-kestrel-note="">{t.sessionHistoryStart}</p> : null}
      {history === 'unavailable' ? <p data-kestrel-note="">{t.sessionHistoryUnavailable}</p> : null}
      {history === 'not-found' ? <p data-kestrel-note="">{t.sessionNotFound}</p> : null}
      {offer ? (
        // Gone once the last page is in: focus then moves to the thread (ActionButton).
        <ActionButton
          ref={button}
          action="load-older"
          aria-disabled={busy || undefined}
          label={t.sessionLoadOlder}
          act={() => void (busy || session.loadOlder())}
        />
      ) : null}
    </div>
  );
}
