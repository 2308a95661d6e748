'use client';
import type { RunRecording, RunState } from '@kestrel/core';
import { describeEntry, seqLabel } from './describe-entry.js';
import { entryJson, type TimelineEntry } from './timeline-entry.js';
import type { DerivedFacts } from './timeline-replay.js';

function describeFinishReason(reason: string | null | undefined): string {
  if (reason === undefined) return 'not known';
  if (reason === null) return 'none (no root turn/end in the owned interval)';
  return reason;
}

function entryTitle(entry: TimelineEntry): string {
  return entry.kind === 'client' ? describeEntry(entry) : `seq ${seqLabel(entry)} · ${describeEntry(entry)}`;
}

/** The selected entry: what the reducer made of the run after it, and its raw JSON (as text, never HTML). */
export function EntryDetails({ entry, state }: { entry: TimelineEntry; state: RunState }) {
  return (
    <section aria-label="Selected entry" data-kestrel-inspector-part="details">
      <p data-kestrel-inspector-cell="title">{entryTitle(entry)}</p>
      <dl data-kestrel-inspector-part="state">
        <dt>phase</dt>
        <dd>{state.phase}</dd>
        <dt>status</dt>
        <dd>{state.status ?? '—'}</dd>
        <dt>finishReason</dt>
        <dd>{describeFinishReason(state.finishReason)}</dd>
        <dt>draft length</dt>
        <dd>{state.draftText.length} chars</dd>
        <dt>last seq</dt>
        <dd>{state.lastSeq}</dd>
        {state.error !== null && (
          <>
            <dt>error</dt>
            <dd>
              {state.error.kind}: {state.error.message}
            </dd>
          </>
        )}
      </dl>
      <pre data-kestrel-inspector-part="json" tabIndex={0} aria-label="Raw JSON">
        {entryJson(entry)}
      </pre>
    </section>
  );
}

export interface DerivedPanelProps {
  readonly facts: DerivedFacts;
  readonly entries: readonly TimelineEntry[];
  readonly finalState: RunState;
  readonly onShow: (index: number) => void;
}

function seqOf(entries: readonly TimelineEntry[], index: number): string {
  const entry = entries[index];
  return entry?.kind === 'event' ? `seq ${entry.event.seq}` : `entry ${index + 1}`;
}

/** What follows from the whole timeline: the owned interval and the turn/end that set the finish reason. */
export function DerivedPanel({ facts, entries, finalState, onShow }: DerivedPanelProps) {
  const { intervalOpenedAt: opened, intervalClosedAt: closed, finishReasonSetAt: setAt } = facts;
  return (
    <section aria-label="Derived" data-kestrel-inspector-part="derived">
      <dl>
        <dt>owned interval</dt>
        <dd data-state={opened === null ? 'not-seen' : closed === null ? 'open' : 'closed'}>
          {opened === null ? (
            'not seen (no root message.received after run.started)'
          ) : (
            <>
              receipt <ShowButton index={opened} entries={entries} onShow={onShow} /> →{' '}
              {closed === null ? (
                'still open (no agent.idle yet)'
              ) : (
                <ShowButton index={closed} entries={entries} onShow={onShow} />
              )}
            </>
          )}
        </dd>
        <dt>finishReason</dt>
        <dd>
          {describeFinishReason(finalState.finishReason)}
          {setAt !== null && (
            <>
              , set by turn/end <ShowButton index={setAt} entries={entries} onShow={onShow} />
            </>
          )}
        </dd>
      </dl>
    </section>
  );
}

function ShowButton({
  index,
  entries,
  onShow,
}: {
  index: number;
  entries: readonly TimelineEntry[];
  onShow: (index: number) => void;
}) {
  return (
    <button type="button" onClick={() => onShow(index)}>
      {seqOf(entries, index)}
    </button>
  );
}

/** What a reader of a recording must know: when it started, what was redacted, and whether entries were left out. */
export function RecordingNotes({ recording }: { recording: RunRecording }) {
  const { truncated } = recording;
  return (
    <section aria-label="Recording" data-kestrel-inspector-part="recording">
      <dl>
        <dt>recorded</dt>
        <dd>
          {recording.startedAt}, {recording.entries.length} entries, ended {recording.final.phase}
          {recording.final.status === null ? '' : ` ${recording.final.status}`}
        </dd>
        <dt>redacted</dt>
        <dd>{recording.redactions.length === 0 ? 'nothing' : recording.redactions.join(', ')}</dd>
        {truncated !== null && (
          <>
            <dt>truncated</dt>
            <dd data-state="truncated">
              {truncated.droppedEntries} entries left out after {(truncated.atMs / 1000).toFixed(3)} s (the{' '}
              {truncated.maxBytes} byte bound): the timeline stops there
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
