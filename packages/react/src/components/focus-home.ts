'use client';
import { useLayoutEffect, type RefObject } from 'react';

/**
 * When the part's element goes away while it holds focus (Stop once the run settles, Try again once the run starts
 * over, the question once it is answered, Jump to latest once there), focus moves to `home`, or else to the run
 * view's root, or else to the conversation's thread, instead of falling to the page: a keyboard or screen reader
 * user carries on where they were. Layout cleanup, because the element is still in the document then (its parent's
 * cleanup runs before its own ref is cleared), and an app that moved focus on first (a parent's cleanup runs
 * earlier) is left alone.
 */
export function useFocusHome(own: RefObject<HTMLElement | null>, home?: RefObject<HTMLElement | null>): void {
  useLayoutEffect(
    () => () => {
      const node = own.current;
      if (node === null || !node.contains(node.ownerDocument.activeElement)) return;
      const target =
        home?.current ??
        node.closest<HTMLElement>('[data-kestrel-run]') ??
        node.closest('[data-kestrel-session]')?.querySelector<HTMLElement>('[data-kestrel-part="thread"]');
      if (target === null || target === undefined) return;
      // Focusable from script only, so it is no extra tab stop.
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
      target.focus({ preventScroll: true });
    },
    [own, home],
  );
}
