'use client';
import { useLayoutEffect, type RefObject } from 'react';

/**
 * When the part's element goes away while it holds focus (Stop once the run settles, Try again once the run starts
 * over, the question once it is answered, Jump to latest once there), focus moves to the run view's root, or else
 * to the conversation's thread, instead of falling to the page: a keyboard or screen reader user carries on where
 * they were.
 *
 * Whether the element held focus is read in the layout cleanup, while it is still in the document (a parent's
 * cleanup runs before its child's ref is cleared). Focus moves a microtask later, once the commit is done, and only
 * if the element really left the document (not StrictMode's rehearsal of an unmount, nor a hidden `<Activity>`),
 * focus fell to the page (an app that moved it on is left alone) and the target is still there (not a whole view
 * the app removed).
 */
export function useFocusHome(own: RefObject<HTMLElement | null>): void {
  useLayoutEffect(
    () => () => {
      const node = own.current;
      const root = node?.getRootNode() as Document | ShadowRoot | undefined;
      if (node == null || root === undefined || !node.contains(root.activeElement)) return;
      const target =
        node.closest<HTMLElement>('[data-kestrel-run]') ??
        node.closest('[data-kestrel-session]')?.querySelector<HTMLElement>('[data-kestrel-part="thread"]');
      if (target == null) return;
      queueMicrotask(() => {
        // The document's, not a shadow root's: that one is null whenever focus is outside its tree.
        const doc = node.ownerDocument;
        const active = doc.activeElement;
        if (node.isConnected || !target.isConnected || (active !== null && active !== doc.body)) return;
        // Focusable from script only, and only until focus moves on to another element: no extra tab stop, and a
        // click on the run's text later does not make the whole view the focused element. Kept while the window
        // alone loses focus (another tab, Alt+Tab), or coming back would find focus at the top of the page. A
        // target focusable already keeps its place in the tab order.
        if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) {
          target.tabIndex = -1;
          const leave = (event: FocusEvent) => {
            if (event.relatedTarget === null) return;
            target.removeEventListener('focusout', leave);
            if (target.getAttribute('tabindex') === '-1') target.removeAttribute('tabindex');
          };
          target.addEventListener('focusout', leave);
        }
        target.focus({ preventScroll: true });
      });
    },
    [own],
  );
}
