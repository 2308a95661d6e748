/**
 * jsdom lays nothing out: every element is 0 px high, so a virtualised list would show no rows at all. This gives
 * the inspector's timeline (and only it) the height its `style` asks for, as a browser would, for the duration of
 * a test file, and scrolls it as a browser would (jsdom's `scrollTo` moves nothing). The Storybook tests run the
 * same lists in Chromium without it.
 */
export function layOutTimelines(): () => void {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  const originalWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetWidth');
  const isTimeline = (element: HTMLElement) => element.getAttribute('data-kestrel-inspector-part') === 'timeline';
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isTimeline(this) ? Number.parseFloat(this.style.height) || 0 : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return isTimeline(this) ? 600 : 0;
    },
  });
  const offsets = new WeakMap<Element, number>();
  const originalTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  const originalScrollTo = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTo');
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get(this: Element) {
      return offsets.get(this) ?? 0;
    },
    set(this: Element, value: number) {
      offsets.set(this, value);
    },
  });
  Object.defineProperty(Element.prototype, 'scrollTo', {
    configurable: true,
    value(this: Element, options: ScrollToOptions | number, y?: number) {
      const top = typeof options === 'number' ? (y ?? 0) : (options.top ?? 0);
      offsets.set(this, Math.max(0, top));
      // A browser reports a scroll later, never inside the call that scrolled.
      queueMicrotask(() => this.dispatchEvent(new Event('scroll')));
    },
  });
  return () => {
    if (originalTop) Object.defineProperty(Element.prototype, 'scrollTop', originalTop);
    if (originalScrollTo) Object.defineProperty(Element.prototype, 'scrollTo', originalScrollTo);
    else delete (Element.prototype as { scrollTo?: unknown }).scrollTo;
    if (original) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', original);
    if (originalWidth) Object.defineProperty(HTMLElement.prototype, 'offsetWidth', originalWidth);
  };
}
