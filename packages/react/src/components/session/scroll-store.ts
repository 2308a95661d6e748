/**
 * The thread's own UI state, shared by the parts of one `Session.Root` (none of it is the session's): where the thread
 * is scrolled (the thread reports whether the person is at the bottom and registers how to get there; the composer and
 * "Jump to latest" ask it to), the hand-offs an entry asks of the thread after a retry, and the sentences
 * `Session.Status` says that no change of the session carries.
 */
export interface ScrollStore {
  readonly subscribe: (listener: () => void) => () => void;
  readonly isAtBottom: () => boolean;
  readonly setAtBottom: (atBottom: boolean) => void;
  /** Scrolls the thread to its end and sticks there again while runs stream. */
  readonly scrollToLatest: () => void;
  /** The thread registers its scroller; returns the unregister. */
  readonly register: (scroller: () => void) => () => void;
  /**
   * A message the person sent again from the thread (Try again, Send again) went to its end: once that renders,
   * the thread scrolls there and takes the focus the button held, instead of the old entry keeping it.
   */
  readonly handOff: () => void;
  /** How many hand-offs were asked for: the thread acts on each new one once. */
  readonly handOffs: () => number;
  /** A sentence for `Session.Status` that no change of the session carries (a Send again the policy refused). */
  readonly announce: (sentence: string) => void;
  readonly onAnnounce: (listener: (sentence: string) => void) => () => void;
}

export function createScrollStore(): ScrollStore {
  let atBottom = true;
  let scroller: (() => void) | null = null;
  let handOffs = 0;
  const listeners = new Set<() => void>();
  const hearers = new Set<(sentence: string) => void>();
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isAtBottom: () => atBottom,
    setAtBottom: (next) => {
      if (next === atBottom) return;
      atBottom = next;
      listeners.forEach((listener) => listener());
    },
    scrollToLatest: () => scroller?.(),
    handOff: () => {
      handOffs += 1;
      listeners.forEach((listener) => listener());
    },
    handOffs: () => handOffs,
    announce: (sentence) => hearers.forEach((hear) => hear(sentence)),
    onAnnounce: (hear) => {
      hearers.add(hear);
      return () => hearers.delete(hear);
    },
    register: (next) => {
      scroller = next;
      return () => {
        if (scroller === next) scroller = null;
      };
    },
  };
}
