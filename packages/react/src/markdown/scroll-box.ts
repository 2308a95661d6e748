/** One observer for every box that may scroll sideways, made at the first one the browser lays out. */
let resizes: ResizeObserver | undefined;

/**
 * A box is a tab stop while it scrolls sideways (its content is wider and its CSS lets it scroll), so a keyboard can
 * scroll it; otherwise it is not: without theme.css a wide box overflows the page and a stop would scroll nothing.
 */
function markScrollable(box: HTMLElement): void {
  if (box.scrollWidth > box.clientWidth && /auto|scroll/.test(getComputedStyle(box).overflowX)) box.tabIndex = 0;
  // A box that has the focus keeps it (focus would fall to the page): it leaves the tab order once left.
  else if (box.ownerDocument.activeElement === box)
    box.addEventListener('blur', () => markScrollable(box), { once: true });
  else box.removeAttribute('tabindex');
}

/**
 * Watches a box that the theme lets scroll sideways (a table's, a code block's `<pre>`) and its one child, which
 * widens while the box keeps its width: an answer with fifty tables or code blocks that fit is not fifty stops on
 * the way through the page. Where the browser does not make scrolling boxes focusable (Safari), a keyboard could
 * not scroll them otherwise. Where nothing can watch, every box is a tab stop.
 */
export function watchScrollBox(element: HTMLElement | null): () => void {
  // `null` only in the type, so it fits any element's ref: React 19 never passes it to a ref that returns a cleanup.
  const box = element!;
  if (typeof ResizeObserver === 'undefined') {
    box.tabIndex = 0;
    return () => undefined;
  }
  resizes ??= new ResizeObserver((entries) => {
    // The box is the element observed whose child is observed too: its table or code, or the box itself.
    for (const { target } of entries)
      markScrollable(/^(TABLE|CODE)$/.test(target.tagName) ? target.parentElement! : (target as HTMLElement));
  });
  const observer = resizes;
  const child = box.firstElementChild!;
  observer.observe(box);
  observer.observe(child);
  return () => {
    observer.unobserve(box);
    observer.unobserve(child);
  };
}
