'use client';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { RunSource } from '@kestrel/core';
import { answerAnnouncement } from './answer-announcement.js';
import { claimVoice } from './run-voice.js';
import type { AssistantTextMode } from './assistant-text.js';

/**
 * How long the announced answer stays in the live region. Screen readers queue a live region's text when it
 * changes (react-aria's announcer keeps its messages 7 s too); after that, removing it spares a person browsing
 * the page a second copy of the answer. Removing text from a polite region is not announced.
 */
export const ANNOUNCEMENT_KEPT_MS = 7_000;

/*
 * Visually hidden without theme.css (theme.css hides it from the first paint too, before this effect: a server-rendered
 * region would otherwise sit in the root's grid, with its gap, until hydration): the region must never show a second copy of the answer. Set through the CSSOM
 * after mount, not as a `style` attribute: a page whose Content-Security-Policy has no 'unsafe-inline' for styles
 * ignores style attributes in server-rendered HTML, and hydration does not set them again, so the region would show
 * the answer for 7 s. CSP does not govern the CSSOM.
 */
const visuallyHidden =
  'position:absolute;inline-size:1px;block-size:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap';

const nothing = { text: '', of: null } as const;

interface SettledAnnouncementProps {
  readonly mode: AssistantTextMode;
  /** The element showing the text: what is announced is read from it once the final text is shown. */
  readonly shown: RefObject<HTMLElement | null>;
  readonly continues: string;
  /** The run shown: of two views of it, one announces the answer. */
  readonly run: RunSource<unknown>;
}

/**
 * A polite live region, in the document (empty) from the first draft on, that receives the answer once when a
 * draft this component showed settles: one addition to a region already there, heard once. A run first seen
 * settled was never a draft here, so nothing is announced. Its own component so that filling and emptying it
 * re-renders nothing else.
 */
export function SettledAnnouncement({ mode, shown, continues, run }: SettledAnnouncementProps) {
  // With the outcome it announces: a later outcome's commit must not show it again (heard twice within 7 s).
  const [announcement, setAnnouncement] = useState<{ readonly text: string; readonly of: unknown }>(nothing);
  // Whether a draft was shown since the last announcement: only then is the final text news.
  const sawDraft = useRef(false);
  const region = useRef<HTMLDivElement>(null);
  const token = useRef<object>(null);
  token.current ??= {};

  // Before the first paint, and before the region can hold any text (it is filled only by the effect below).
  useLayoutEffect(() => {
    if (region.current !== null) region.current.style.cssText = visuallyHidden;
  }, []);

  useEffect(() => {
    if (mode !== 'final') {
      sawDraft.current = true;
      return;
    }
    if (!sawDraft.current || shown.current === null) return;
    sawDraft.current = false;
    // A run stopped or failed before the end has no answer to tell: the status says it was cancelled or failed (and
    // why), and what it said until then stays on the page, labelled so. Announcing that text too would put a second
    // polite update in the same task as the status, and a screen reader that speaks only the last would say the text
    // and never the failure.
    const { status } = run.getState();
    if (status === 'CANCELLED' || status === 'FAILED') return;
    // Of two views of this run, one says it (decided now: a view that left as the run settled says nothing).
    const of = run.getState().result;
    const speaks = claimVoice(run.getState, 'answer', of, token.current!, shown.current);
    setAnnouncement({ text: speaks ? answerAnnouncement(shown.current, continues) : '', of });
  }, [mode, shown, continues, run]);

  useEffect(() => {
    if (announcement.text === '') return;
    const timer = setTimeout(() => setAnnouncement(nothing), ANNOUNCEMENT_KEPT_MS);
    return () => clearTimeout(timer);
  }, [announcement]);

  // The run's outcome now: the commit that shows the next one still holds the last announcement until the effect.
  const current = run.getState().result;

  return (
    <div ref={region} data-kestrel-part="announcement" aria-live="polite">
      {/* A new draft (a run going on after its answer) is not the answer: the last one is not kept beside it. */}
      {mode === 'final' && announcement.of === current ? announcement.text : ''}
    </div>
  );
}
