'use client';
import { useLayoutEffect, type ReactNode, type RefObject } from 'react';

/**
 * Around a kit button that goes away once it has done its work (the last older page arrived, a queued message was
 * withdrawn): when the person is on it as it goes, focus moves to the thread, not to the start of the page, where a
 * keyboard user would have to find their way back. Runs as React removes it, while the button still has focus.
 */
export function HandsFocusBack({ target, children }: { target: RefObject<HTMLElement | null>; children: ReactNode }) {
  useLayoutEffect(
    () => () => {
      const node = target.current;
      if (node !== null && node === node.ownerDocument.activeElement)
        node.closest<HTMLElement>('[data-kestrel-part="thread"]')?.focus({ preventScroll: true });
    },
    [target],
  );
  return children;
}
