/** One observer for every box that may scroll sideways, made at the first one the browser lays out. */
let resizes: ResizeObserver | undefined;
/** The box each element observed belongs to: the box itself, and its first child. */
const boxOf = new WeakMap<Element, HTMLElement>();

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
 * A ref callback for a box that may scroll sideways (a code block's `<pre>`, a table's wrapper): it is in the tab
 * order only while it scrolls (its content is wider than it and its `overflow-x` is `auto` or `scroll`), so a
 * keyboard can scroll it where the browser does not make scrolling boxes focusable (Safari), and an answer with
 * fifty blocks that fit is not fifty stops on the way through the page. The default code blocks and tables use it;
 * give it, as it is, to the `<pre>` of a `renderCodeBlock` of your own. It watches the box and its first child, as
 * they are when it is attached (keep that child, and change what is inside it): the child must be a box as wide as
 * its content, so that a line growing wider resizes it (a browser reports no size for inline elements). With
 * theme.css a `<code>` around `CodeText` is one; otherwise give the `<code>` `display: block; inline-size:
 * fit-content; min-inline-size: 100%`. Do not set the box's `tabIndex` yourself. Where nothing can watch (no
 * `ResizeObserver`), the box is always a tab stop.
 *
 * @example
 * <pre ref={watchScrollBox}><code><CodeText text={code} /></code></pre>
 */
export function watchScrollBox(box: HTMLElement | null): () => void {
  // React 19 passes `null` only to a ref that returned no cleanup: an app's own ref that calls this one and drops
  // the cleanup, which then never stops the watching (the docs ask for it to be returned).
  if (box === null) return () => undefined;
  if (typeof ResizeObserver === 'undefined') {
    box.tabIndex = 0;
    return () => undefined;
  }
  const observer = (resizes ??= new ResizeObserver((entries) => {
    for (const { target } of entries) {
      const watched = boxOf.get(target);
      if (watched !== undefined) markScrollable(watched);
    }
  }));
  const observed = [box, box.firstElementChild].filter((node) => node !== null);
  for (const node of observed) {
    boxOf.set(node, box);
    observer.observe(node);
  }
  return () => {
    for (const node of observed) observer.unobserve(node);
  };
}
