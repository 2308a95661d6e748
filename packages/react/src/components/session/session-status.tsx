'use client';
import type { SessionEntry, SessionEntryStatus, SessionState } from '@kestrel/core';
import { Fragment, useEffect, useRef, useState, type HTMLAttributes, type Ref } from 'react';
import { failureArgs } from './failure-reason.js';
import { useKestrelLabels } from '../default-labels.js';
import type { KestrelLabels } from '../labels.js';
import { joinSentences } from '../join-sentences.js';
import { announcementText, selectAnnouncement, selectAnnouncementDetails } from '../run-status.js';
import { useSessionContext } from './session-context.js';

/** Props of `Session.Status`: `div` attributes passed through. */
export interface SessionStatusProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly ref?: Ref<HTMLDivElement>;
}

/** How soon after a late answer's sentence the same entry's outcome is said together with it. */
const JOIN_MS = 3_000;

const inProgress: ReadonlySet<SessionEntryStatus> = new Set(['queued', 'sending', 'live']);

/** What the status region last saw of an entry. */
type Seen = Pick<SessionEntry<unknown>, 'status' | 'answerNotTaken'>;

/** What to say about an entry whose status just changed, or null for nothing worth a sentence. */
function sentenceFor(entry: SessionEntry<unknown>, seen: Seen | undefined, t: KestrelLabels) {
  // An answer refused because the wait was over: the person pressed Send and their question went away.
  if (entry.answerNotTaken !== null && entry.answerNotTaken !== seen?.answerNotTaken)
    return t.answerNotTaken(entry.answerNotTaken.reason);
  const before = seen?.status;
  if (entry.status === before) return null;
  switch (entry.status) {
    case 'queued':
      return t.sessionQueuedAnnouncement;
    case 'failed-to-send':
      return t.sessionFailedToSend(...failureArgs(entry.error));
    case 'waiting':
    case 'settled': {
      // Only a run seen in progress here: a page of history read aloud would drown the conversation.
      if (before === undefined || !inProgress.has(before)) return null;
      const state = entry.run.getState();
      return announcementText(selectAnnouncement(state), selectAnnouncementDetails(state), t);
    }
    // What broke (`interrupted`) is said by the run's own alert (Run.Error) in the thread: said once, not twice.
    case 'interrupted':
    case 'sending':
    case 'live':
      return null;
    default:
      return entry.status satisfies never;
  }
}

/**
 * One polite live region for the whole conversation: one sentence per run outcome (finished, waiting for your
 * answer, failed, cancelled), per queued message and per message that could not be sent; never per token, and
 * never for history as it loads. The runs in the thread keep their visible status without announcing it.
 * Visually hidden by the theme. `data-kestrel-part="session-status"`.
 *
 * @example
 * <Session.Status className="sr-only" />
 */
export function SessionStatus({ ref, ...rest }: SessionStatusProps) {
  const { session, scroll } = useSessionContext('Session.Status');
  const t = useKestrelLabels();
  // Counted, so the same sentence twice in a row (two runs that fail alike) is new text again, and heard again.
  const [said, setSaid] = useState({ sentence: '', count: 0 });
  const labels = useRef(t);
  // A late answer's sentence, kept a moment (across re-subscriptions): the run read again often settles right after,
  // and a screen reader may speak only the newest text of a polite region, so that outcome is said with it.
  const notTaken = useRef<{ readonly key: string; readonly sentence: string; readonly at: number } | null>(null);
  useEffect(() => {
    labels.current = t;
  });
  useEffect(() => {
    const say = (sentence: string) => setSaid((before) => ({ sentence, count: before.count + 1 }));
    const seenOf = (state: SessionState<unknown>) =>
      new Map<string, Seen>(state.entries.map((entry) => [entry.key, entry]));
    let seen = seenOf(session.getState());
    const check = (state: SessionState<unknown>) => {
      let latest: { readonly key: string; readonly sentence: string } | null = null;
      for (const entry of state.entries) {
        const sentence = sentenceFor(entry, seen.get(entry.key), labels.current);
        if (sentence !== null) latest = { key: entry.key, sentence };
        if (entry.answerNotTaken !== null && entry.answerNotTaken !== seen.get(entry.key)?.answerNotTaken)
          notTaken.current = { key: entry.key, sentence: sentence ?? '', at: Date.now() };
      }
      seen = seenOf(state);
      if (latest === null) return;
      const earlier = notTaken.current;
      if (earlier !== null && earlier.key === latest.key && earlier.sentence !== latest.sentence) {
        notTaken.current = null;
        if (Date.now() - earlier.at < JOIN_MS) return say(joinSentences(earlier.sentence, latest.sentence));
      }
      say(latest.sentence);
    };
    const unsubscribe = session.subscribe(() => check(session.getState()));
    // What no change of the session carries: a Send again the session's policy refused.
    const unhear = scroll.onAnnounce(say);
    return () => {
      unsubscribe();
      unhear();
    };
  }, [session, scroll]);
  return (
    <div {...rest} ref={ref} role="status" aria-live="polite" aria-atomic="true" data-kestrel-part="session-status">
      <Fragment key={said.count}>{said.sentence}</Fragment>
    </div>
  );
}
