'use client';
import type { RunRecorder, RunRecording, RunSource } from '@kestrel/core';
import { useId, useMemo, useState, useSyncExternalStore, type HTMLAttributes } from 'react';
import { DownloadRecording } from './download-recording.js';
import { DerivedPanel, EntryDetails, RecordingNotes } from './entry-details.js';
import { RecordingTimeline } from './timeline-from-recording.js';
import { StateTimeline } from './timeline-from-state.js';
import type { TimelineEntry } from './timeline-entry.js';
import { noFilter, positionOf, TimelineIndex, type SessionFilter, type TimelineFilter } from './timeline-index.js';
import { TimelineList } from './timeline-list.js';
import { TimelineReplay } from './timeline-replay.js';

/** Props of `<RunInspector>`. */
export interface RunInspectorProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The run to inspect: what `useRun` returns, or any source of run states. */
  readonly run: RunSource<unknown>;
  /**
   * What the client saw of the run, from `recordRun`: the recorder while it records (the timeline follows it), or
   * a recording (e.g. a downloaded file read back with `parseRunRecording`). With one, the timeline holds every
   * SSE message as received with its time and size, and the client's connections, drops, reconnects, resumes,
   * answers and errors; "Download recording" appears. Without one, it holds the events the run's state kept.
   */
  readonly recording?: RunRecorder | RunRecording | undefined;
  /** Height of the timeline in CSS pixels; only the rows in view are rendered. Default 320. */
  readonly timelineHeight?: number;
  /** Height of one timeline row in CSS pixels (rows are virtualised, so all have this height). Default 28. */
  readonly rowHeight?: number;
}

const sessionValue = (filter: SessionFilter) => (filter.kind === 'session' ? `session:${filter.id}` : filter.kind);
const sessionFilter = (value: string): SessionFilter =>
  value.startsWith('session:')
    ? { kind: 'session', id: value.slice('session:'.length) }
    : value === 'root'
      ? { kind: 'root' }
      : { kind: 'all' };

const isRecorder = (recording: RunRecorder | RunRecording): recording is RunRecorder => 'recording' in recording;

/** The timeline: from the recording when there is one, else from the run's state; kept current as either grows. */
function useTimeline(run: RunSource<unknown>, recording: RunRecorder | RunRecording | undefined) {
  const state = useSyncExternalStore(run.subscribe, run.getState, run.getState);
  const [fromState] = useState(() => new StateTimeline());
  const [fromRecording] = useState(() => new RecordingTimeline());
  // A recorder hands out a new document per call: read it again only when the run moved.
  const document = useMemo(
    () => (recording === undefined ? undefined : isRecorder(recording) ? recording.recording() : recording),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `state` is the signal that the recorder has more
    [recording, state],
  );
  // Idempotent for one input: what a second (StrictMode) render takes in is already there.
  const timeline = document === undefined ? fromState : fromRecording;
  if (document === undefined) fromState.update(state);
  else fromRecording.update(document);
  return { entries: timeline.entries, generation: timeline.generation, length: timeline.entries.length, document };
}

/**
 * An inspector for one run: every event in order (seq, type, session, time, size) with the client's own
 * happenings between them, filters by type and session, the raw JSON of a selected entry and the state the kit's
 * reducer produced after it, and what follows from the whole run (the owned interval, the turn/end that set the
 * finish reason). Unstyled; `@kestrel/react/theme.css` styles it.
 *
 * @example
 * const run = useRun();
 * return (<><RunView run={run} /><RunInspector run={run} /></>);
 */
export function RunInspector({ run, recording, timelineHeight = 320, rowHeight = 28, ...rest }: RunInspectorProps) {
  const id = useId();
  const { entries, generation, length, document } = useTimeline(run, recording);
  const read = recording === undefined ? undefined : () => (isRecorder(recording) ? recording.recording() : recording);
  return (
    <InspectorView
      {...rest}
      id={id}
      recording={document}
      read={read}
      entries={entries}
      generation={generation}
      length={length}
      timelineHeight={timelineHeight}
      rowHeight={rowHeight}
    />
  );
}

interface InspectorViewProps extends Omit<HTMLAttributes<HTMLElement>, 'children' | 'id'> {
  readonly id: string;
  readonly recording: RunRecording | undefined;
  readonly read: (() => RunRecording) | undefined;
  readonly entries: readonly TimelineEntry[];
  readonly generation: number;
  readonly length: number;
  readonly timelineHeight: number;
  readonly rowHeight: number;
}

function InspectorView(props: InspectorViewProps) {
  const { id, recording, read, entries, generation, length, timelineHeight, rowHeight, ...rest } = props;
  const [filter, setFilter] = useState<TimelineFilter>(noFilter);
  const [activeEntry, setActiveEntry] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new generation is a new timeline: start over
  const replay = useMemo(() => new TimelineReplay(), [entries, generation]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as above; the filter narrows a fresh index
  const index = useMemo(() => new TimelineIndex(filter), [entries, generation, filter]);
  replay.extend(entries);
  index.extend(entries);
  const visible = index.visible;
  const activePosition = positionOf(visible, activeEntry);
  const selectedEntry = selected !== null && selected < length ? selected : null;

  const show = (entryIndex: number) => {
    if (!index.visible.includes(entryIndex)) setFilter(noFilter);
    setActiveEntry(entryIndex);
    setSelected(entryIndex);
  };

  return (
    <section aria-label="Run inspector" data-kestrel-inspector="" {...rest}>
      <div data-kestrel-inspector-part="toolbar">
        <label>
          Type{' '}
          <select
            value={filter.type ?? ''}
            onChange={(event) => setFilter({ ...filter, type: event.target.value === '' ? null : event.target.value })}
          >
            <option value="">all types</option>
            {index.types.map((type) => (
              <option key={type} value={type}>
                {type === 'client' ? 'client happenings' : type}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Session{' '}
          <select
            value={sessionValue(filter.session)}
            onChange={(event) => setFilter({ ...filter, session: sessionFilter(event.target.value) })}
          >
            <option value="all">all sessions</option>
            <option value="root">root</option>
            {index.subSessions.map((session) => (
              <option key={session} value={`session:${session}`}>
                sub-agent {session}
              </option>
            ))}
          </select>
        </label>{' '}
        <span data-kestrel-inspector-cell="count">
          {visible.length === length ? `${length} entries` : `${visible.length} of ${length} entries`}
        </span>
        {read !== undefined && (
          <>
            {' '}
            <DownloadRecording read={read} />
          </>
        )}
      </div>
      <div data-kestrel-inspector-part="header" aria-hidden="true">
        <span data-kestrel-inspector-cell="seq">seq</span> <span data-kestrel-inspector-cell="type">type</span>{' '}
        <span data-kestrel-inspector-cell="session">session</span> <span data-kestrel-inspector-cell="time">time</span>{' '}
        <span data-kestrel-inspector-cell="size">size</span>
      </div>
      <TimelineList
        id={`${id}-timeline`}
        entries={entries}
        visible={visible}
        rootSessionId={index.rootSessionId}
        activePosition={activePosition}
        selected={selectedEntry}
        rowHeight={rowHeight}
        height={timelineHeight}
        onActivate={(position) => setActiveEntry(visible[position] ?? 0)}
        onSelect={(position) => setSelected(visible[position] ?? null)}
      />
      {selectedEntry === null ? (
        <p data-kestrel-inspector-part="details">Select an entry (Enter) to see its JSON and the state after it.</p>
      ) : (
        <EntryDetails entry={entries[selectedEntry] as TimelineEntry} state={replay.stateAfter(selectedEntry)} />
      )}
      <DerivedPanel facts={replay.facts} entries={entries} finalState={replay.finalState} onShow={show} />
      {recording !== undefined && <RecordingNotes recording={recording} />}
    </section>
  );
}
