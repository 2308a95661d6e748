'use client';
import { useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { answerAnnouncement } from './answer-announcement.js';
import type { AssistantTextMode } from './assistant-text.js';

/**
 * How long the announced answer stays in the live region. Screen readers queue a live region's text when it
 * changes (react-aria's announcer keeps its messages 7 s too); after that, removing it spares a person browsing
 * the page a second copy of the answer. Removing text from a polite region is not announced.
 */
export const ANNOUNCEMENT_KEPT_MS = 7_000;

// Visually hidden without theme.css: the region must never show a second copy of the answer.
const visuallyHidden: CSSProperties = {
  position: 'absolute',
  inlineSize: 1,
  blockSize: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

interface SettledAnnouncementProps {
  readonly mode: AssistantTextMode;
  /** The element showing the text: what is announced is read from it once the final text is shown. */
  readonly shown: RefObject<HTMLElement | null>;
  readonly continues: string;
}

/**
 * A polite live region, in the document (empty) from the first draft on, that receives the answer once when a
 * draft this component showed settles: one addition to a region already there, heard once. A run first seen
 * settled was never a draft here, so nothing is announced. Its own component so that filling and emptying it
 * re-renders nothing else.
 */
export function SettledAnnouncement({ mode, shown, continues }: SettledAnnouncementProps) {
  const [announcement, setAnnouncement] = useState('');
  // Whether a draft was shown since the last announcement: only then is the final text news.
  const sawDraft = useRef(false);

  useEffect(() => {
    if (mode !== 'final') {
      sawDraft.current = true;
      return;
    }
    if (!sawDraft.current || shown.current === null) return;
    sawDraft.current = false;
    setAnnouncement(answerAnnouncement(shown.current, continues));
  }, [mode, shown, continues]);

  useEffect(() => {
    if (announcement === '') return;
    const timer = setTimeout(() => setAnnouncement(''), ANNOUNCEMENT_KEPT_MS);
    return () => clearTimeout(timer);
  }, [announcement]);

  return (
    <div aria-live="polite" style={visuallyHidden}>
      {/* A new draft (a run going on after its answer) is not the answer: the last one is not kept beside it. */}
      {mode === 'final' ? announcement : ''}
    </div>
  );
}
