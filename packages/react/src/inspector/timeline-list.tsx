'use client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { describeEntry, formatTime, seqLabel, sessionLabel } from './describe-entry.js';
import { entryBytes, type TimelineEntry } from './timeline-entry.js';

export interface TimelineListProps {
  readonly id: string;
  readonly entries: readonly TimelineEntry[];
  /** Indices into `entries` of the rows shown, ascending. */
  readonly visible: readonly number[];
  readonly rootSessionId: string | null;
  /** Position (in `visible`) of the row the keyboard is on. */
  readonly activePosition: number;
  /** Entry index of the selected row, or `null`. */
  readonly selected: number | null;
  readonly rowHeight: number;
  readonly height: number;
  readonly onActivate: (position: number) => void;
  readonly onSelect: (position: number) => void;
}

/** The options of one row, each in its own column span: seq, type, session, time, size. */
function Row({ entry, rootSessionId }: { entry: TimelineEntry; rootSessionId: string | null }) {
  const bytes = entryBytes(entry);
  return (
    <>
      <span data-kestrel-inspector-cell="seq">{seqLabel(entry)}</span>{' '}
      <span data-kestrel-inspector-cell="type">{describeEntry(entry)}</span>{' '}
      <span data-kestrel-inspector-cell="session">{sessionLabel(entry, rootSessionId)}</span>{' '}
      <span data-kestrel-inspector-cell="time">{formatTime(entry.atMs)}</span>{' '}
      <span data-kestrel-inspector-cell="size">{bytes === null ? '' : `${bytes} B`}</span>
    </>
  );
}

/**
 * The timeline as a virtualised listbox: only the rows in view (and a few around) are in the DOM, so 100,000
 * entries scroll as 30 do. Focus stays on the list (`aria-activedescendant`); arrows, Page Up/Down, Home and End
 * move, Enter or Space selects.
 */
export function TimelineList(props: TimelineListProps) {
  const { id, entries, visible, rootSessionId, activePosition, selected, rowHeight, height } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the kit does not use the React Compiler; the list renders on every change
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const optionId = (position: number) => `${id}-option-${visible[position]}`;
  const hasActive = visible.length > 0 && activePosition < visible.length;

  const move = (position: number) => {
    if (visible.length === 0) return;
    const next = Math.max(0, Math.min(visible.length - 1, position));
    props.onActivate(next);
  };
  // The row the keyboard (or a "show" button) is on is always in view, so its option exists for activedescendant.
  // Only when it moves: rows arriving in a live run leave the scroll position to the reader.
  const count = useRef(visible.length);
  count.current = visible.length;
  useEffect(() => {
    if (activePosition < count.current) virtualizer.scrollToIndex(activePosition, { align: 'auto' });
  }, [virtualizer, activePosition]);
  const page = Math.max(1, Math.floor(height / rowHeight) - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        move(activePosition + 1);
        break;
      case 'ArrowUp':
        move(activePosition - 1);
        break;
      case 'PageDown':
        move(activePosition + page);
        break;
      case 'PageUp':
        move(activePosition - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(visible.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (hasActive) props.onSelect(activePosition);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div
      ref={scrollRef}
      id={id}
      role="listbox"
      tabIndex={0}
      aria-label="Timeline"
      aria-activedescendant={hasActive ? optionId(activePosition) : undefined}
      data-kestrel-inspector-part="timeline"
      onKeyDown={onKeyDown}
      style={{ height, overflowY: 'auto', position: 'relative', contain: 'strict' }}
    >
      <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const index = visible[item.index] as number;
          const entry = entries[index] as TimelineEntry;
          return (
            <div
              key={index}
              id={optionId(item.index)}
              role="option"
              aria-selected={index === selected}
              aria-posinset={item.index + 1}
              aria-setsize={visible.length}
              data-kestrel-inspector-part="entry"
              data-entry-kind={entry.kind}
              data-kestrel-active={item.index === activePosition ? '' : undefined}
              data-session={
                entry.kind !== 'event' ? undefined : entry.event.sessionId === rootSessionId ? 'root' : 'sub-agent'
              }
              onClick={() => {
                props.onActivate(item.index);
                props.onSelect(item.index);
              }}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                height: rowHeight,
                transform: `translateY(${item.start}px)`,
              }}
            >
              <Row entry={entry} rootSessionId={rootSessionId} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
