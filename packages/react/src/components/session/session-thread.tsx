'use client';
import type { SessionState } from '@kestrel/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type HTMLAttributes,
  type Ref,
  type RefObject,
} from 'react';
import { useSessionSelector } from '../../use-session-selector.js';
import { useKestrelLabels } from '../default-labels.js';
import { assignRef } from '../use-own-element.js';
import { sameKeys, selectKeys, useSessionContext } from './session-context.js';
import { SessionEntryView } from './session-entry.js';

/** Within this many pixels of the end, the person counts as at the bottom: new text keeps the view there. */
const STICK_PX = 48;

const selectActiveKey = (state: SessionState<unknown>) => state.activeKey;
const selectLoading = (state: SessionState<unknown>) => state.history === 'loading';
const selectEmpty = (state: SessionState<unknown>) =>
  state.entries.length === 0 && state.history !== 'loading' && state.history !== 'more';

/** Props of `Session.Thread`: `div` attributes passed through, plus when to virtualise. */
export interface SessionThreadProps extends HTMLAttributes<HTMLDivElement> {
  /**
   * Threads with more entries than this mount only the entries in view (and a few around them), positioned by
   * `@tanstack/react-virtual`. Shorter threads render every entry in normal flow (find in page, print). Default 50.
   */
  readonly virtualizeAfter?: number;
  /** The height an entry is assumed to have before it is measured, in pixels. Default 240. */
  readonly estimateEntrySize?: number;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The conversation: a scrollable `role="log"` with the entries in order (the person's message, their answers,
 * then the run as `RunView` shows it). Its children (e.g. `Session.LoadOlder`) come first, at the top. While runs
 * stream it stays at the bottom unless the person scrolled up (then `Session.JumpToLatest` offers the way back);
 * older entries loaded at the top keep what the person is reading in place. The log's own live region is off:
 * streamed tokens are not read out; `Session.Status` announces each outcome once. Give it a height (or a flex
 * parent) so it can scroll. `data-kestrel-part="thread"`.
 *
 * @example
 * <Session.Thread style={{ height: '70vh' }}><Session.LoadOlder /></Session.Thread>
 */
export function SessionThread({
  virtualizeAfter = 50,
  estimateEntrySize = 240,
  children,
  style,
  onScroll,
  ref,
  ...rest
}: SessionThreadProps) {
  const { session, scroll } = useSessionContext('Session.Thread');
  const keys = useSessionSelector(session, selectKeys, sameKeys);
  const activeKey = useSessionSelector(session, selectActiveKey);
  const empty = useSessionSelector(session, selectEmpty);
  const loading = useSessionSelector(session, selectLoading);
  const t = useKestrelLabels();
  const scroller = useRef<HTMLDivElement | null>(null);
  const list = useRef<HTMLDivElement | null>(null);
  const stuck = useRef(true);
  // The distance from the scroll position to the end: what a page loaded at the top must not change.
  const fromEnd = useRef(0);
  const [listOffset, setListOffset] = useState(0);
  const virtual = keys.length > virtualizeAfter;

  const remember = useCallback(() => {
    const element = scroller.current;
    if (element !== null) fromEnd.current = element.scrollHeight - element.scrollTop;
  }, []);

  const toLatest = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    element.scrollTop = element.scrollHeight;
    stuck.current = true;
    scroll.setAtBottom(true);
    remember();
  }, [scroll, remember]);
  useEffect(() => scroll.register(toLatest), [scroll, toLatest]);

  // Try again or Send again put the message at the end: follow it there. The button that asked is gone by now
  // (removed in this same commit), so focus fell to the page; the thread takes it rather than the old entry.
  const handOffs = useSyncExternalStore(scroll.subscribe, scroll.handOffs, scroll.handOffs);
  const handled = useRef(handOffs);
  useLayoutEffect(() => {
    if (handOffs === handled.current) return;
    handled.current = handOffs;
    toLatest();
    const element = scroller.current;
    const active = element?.ownerDocument.activeElement;
    if (element != null && (active == null || active === element.ownerDocument.body))
      element.focus({ preventScroll: true });
  }, [handOffs, toLatest]);

  // Also kept as state: the virtual list needs the element on its first layout, after this ref is attached.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const setScroller = useCallback(
    (node: HTMLDivElement | null) => {
      scroller.current = node;
      setScrollElement(node);
      assignRef(ref, node);
    },
    [ref],
  );

  const firstKey = useRef<string | undefined>(keys[0]);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (list.current !== null && list.current.offsetTop !== listOffset) setListOffset(list.current.offsetTop);
    if (element === null) return;
    const previousFirst = firstKey.current;
    firstKey.current = keys[0];
    const prepended = previousFirst !== undefined && keys[0] !== previousFirst && keys.includes(previousFirst);
    if (stuck.current) element.scrollTop = element.scrollHeight;
    else if (prepended) element.scrollTop = element.scrollHeight - fromEnd.current;
    remember();
  }, [keys, listOffset, remember]);

  // Streaming text and measured entries grow the list without a scroll event: follow them while stuck.
  useEffect(() => {
    const element = list.current;
    if (element === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const container = scroller.current;
      if (container === null) return;
      if (stuck.current) container.scrollTop = container.scrollHeight;
      remember();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [remember, virtual]);

  return (
    <div
      {...rest}
      ref={setScroller}
      role="log"
      // The log role is a polite live region by default: every streamed token would be read out.
      aria-live="off"
      aria-label={t.sessionThread}
      aria-busy={loading}
      tabIndex={0}
      data-kestrel-part="thread"
      data-state={virtual ? 'virtual' : 'flow'}
      style={{ overflowY: 'auto', overflowAnchor: 'none', position: 'relative', ...style }}
      onScroll={(event) => {
        onScroll?.(event);
        const element = event.currentTarget;
        stuck.current = element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_PX;
        scroll.setAtBottom(stuck.current);
        remember();
      }}
    >
      {children}
      {empty ? <p data-kestrel-part="empty">{t.sessionEmpty}</p> : null}
      {virtual ? (
        <VirtualEntries
          keys={keys}
          activeKey={activeKey}
          listOffset={listOffset}
          estimateEntrySize={estimateEntrySize}
          scrollElement={scrollElement}
          list={list}
        />
      ) : (
        <div ref={list}>
          {keys.map((key) => (
            <SessionEntryView key={key} entryKey={key} active={key === activeKey} />
          ))}
        </div>
      )}
    </div>
  );
}

interface VirtualEntriesProps {
  readonly keys: readonly string[];
  readonly activeKey: string | null;
  readonly listOffset: number;
  readonly estimateEntrySize: number;
  readonly scrollElement: HTMLDivElement | null;
  readonly list: RefObject<HTMLDivElement | null>;
}

/** The entries in view of a long thread (and a few around them), each placed at its measured offset. */
function VirtualEntries({ keys, activeKey, listOffset, estimateEntrySize, scrollElement, list }: VirtualEntriesProps) {
  // The virtualiser re-renders this list on scroll by design; the entries themselves stay memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimateEntrySize,
    getItemKey: (index) => keys[index] ?? index,
    overscan: 3,
    scrollMargin: listOffset,
  });
  return (
    <div ref={list} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <SessionEntryView
          key={item.key}
          ref={virtualizer.measureElement}
          index={item.index}
          offset={item.start - listOffset}
          entryKey={keys[item.index] as string}
          active={keys[item.index] === activeKey}
        />
      ))}
    </div>
  );
}
