'use client';
import type { RunErrorKind, RunSource, RunState } from '@kestrel/core';
import { Slot, Slottable } from './slot.js';
import type { HTMLAttributes, ReactElement, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { finishNoteText, selectFinishNoteReason } from './finish-notice.js';
import { defaultRunLabels, useRunLabels, type KestrelLabels, type RunLabels } from './labels.js';
import { usePartRun } from './run-context.js';
import { joinSentences } from './join-sentences.js';
import { useVoice } from './run-voice.js';
import { shallowEqual } from './shallow-equal.js';
import { useOwnElement } from './use-own-element.js';

/**
 * The only moments worth announcing: not every delta. Outcomes (`waiting`, `finished`, `failed`, `cancelled`) and
 * what broke on the way (phase `error`) are separate words, so a dropped connection never sounds like FAILED.
 * `finished-with-note` is a COMPLETED run whose last root turn did not end normally (e.g. `max-tokens`): the
 * announcement carries `FinishNotice`'s words, so the note is heard once, with the outcome.
 */
export type RunAnnouncement =
  | 'none'
  | 'started'
  | 'detached'
  | 'waiting'
  | 'finished'
  | 'finished-with-note'
  | 'failed'
  | 'cancelled'
  | 'connection-lost'
  | 'unreachable'
  | 'stream-ended'
  | 'protocol-error'
  | 'invalid-after-outcome'
  | 'request-failed'
  | 'timed-out';

const broken: Record<RunErrorKind, RunAnnouncement> = {
  transport: 'connection-lost',
  truncated: 'stream-ended',
  protocol: 'protocol-error',
  http: 'request-failed',
  timeout: 'timed-out',
};

export function selectAnnouncement(state: RunState): RunAnnouncement {
  switch (state.phase) {
    case 'idle':
      return 'none';
    case 'connecting':
    case 'streaming':
    case 'reconnecting':
      // Reconnecting stays "started": it is automatic and often brief, shown in the view; announcing every drop
      // and recovery would chatter. If it gives up, the error that follows is announced.
      return 'started';
    case 'detached':
      return 'detached';
    case 'error':
      // Only a protocol error can follow run.completed; the outcome it follows is still there.
      if (state.error.kind === 'protocol' && state.output !== null) return 'invalid-after-outcome';
      return state.error.kind === 'transport' && state.error.connection === 'none'
        ? 'unreachable'
        : broken[state.error.kind];
    case 'settled':
      switch (state.status) {
        case 'WAITING':
          return 'waiting';
        case 'FAILED':
          return 'failed';
        case 'CANCELLED':
          return 'cancelled';
        case 'COMPLETED':
          return selectFinishNoteReason(state) === null ? 'finished' : 'finished-with-note';
        default:
          return state satisfies never;
      }
    default:
      return state satisfies never;
  }
}

const texts: Record<Exclude<RunAnnouncement, 'none'>, keyof RunLabels> = {
  started: 'statusStarted',
  detached: 'statusDetached',
  waiting: 'statusWaiting',
  finished: 'statusFinished',
  'finished-with-note': 'statusFinished', // the note's own words are added in announcementText
  failed: 'statusFailed',
  cancelled: 'statusCancelled',
  'connection-lost': 'statusConnectionLost',
  unreachable: 'errorUnreachable',
  'stream-ended': 'statusStreamEnded',
  'protocol-error': 'statusProtocolError',
  'invalid-after-outcome': 'statusProtocolErrorAfterOutcome',
  'request-failed': 'statusRequestFailed',
  'timed-out': 'statusTimedOut',
};

/** What an outcome's sentence says besides the outcome: the finish note, why it FAILED, a payload that fails its schema. */
export interface AnnouncementDetails {
  readonly noteReason: string | null;
  readonly failure: string | null;
  readonly payloadInvalid: boolean;
}

const FAILURE_CHARS = 300;

/** The server's failure message as one line of at most 300 characters (never a split emoji), or null when blank. */
function failureLine(message: string): string | null {
  const line = message.replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  const characters = Array.from(line);
  return characters.length > FAILURE_CHARS ? `${characters.slice(0, FAILURE_CHARS).join('').trimEnd()}…` : line;
}

export function selectAnnouncementDetails(state: RunState): AnnouncementDetails {
  return {
    noteReason: selectFinishNoteReason(state),
    failure: state.output?.status === 'FAILED' ? failureLine(state.output.error.message) : null,
    payloadInvalid: state.payload?.status === 'invalid',
  };
}

/**
 * Whether the app gave its own `outcome` sentence but kept the kit's English `added` one (labels written before
 * `added` existed): the added words are then left out or built from the app's, never English beside its language.
 */
const ownWordsOnly = (labels: RunLabels, outcome: keyof RunLabels, added: keyof RunLabels) =>
  labels[outcome] !== defaultRunLabels[outcome] && labels[added] === defaultRunLabels[added];

export function announcementText(
  announcement: RunAnnouncement,
  details: AnnouncementDetails,
  labels: RunLabels,
): string {
  if (announcement === 'none') return '';
  // One region, one sentence: what the outcome carries (the finish note, why it failed, a payload that fails its
  // schema) rides on it rather than a second live region competing with it, and a person hears it with the outcome.
  if (announcement === 'failed' && details.failure !== null) {
    return ownWordsOnly(labels, 'statusFailed', 'statusFailedWithMessage')
      ? `${labels.statusFailed}: ${details.failure}`
      : labels.statusFailedWithMessage(details.failure);
  }
  if (announcement !== 'finished' && announcement !== 'finished-with-note')
    return labels[texts[announcement]] as string;
  const invalid = details.payloadInvalid && !ownWordsOnly(labels, 'statusFinished', 'statusPayloadInvalid');
  const note = details.noteReason === null ? '' : finishNoteText(labels, details.noteReason);
  const both = joinSentences(note, invalid ? labels.statusPayloadInvalid : '');
  return both === '' ? labels.statusFinished : labels.statusFinishedWithNote(both);
}

const selectError = (state: RunState) => state.error;

/** What broke on the way (phase `error`): `Run.Error`'s alert says it, when one is mounted beside the status. */
const brokenAnnouncements: ReadonlySet<RunAnnouncement> = new Set(
  Object.values(broken).concat('invalid-after-outcome', 'unreachable'),
);

/** Props of `RunStatus`: the run whose phase to announce, plus `div` attributes passed through. */
export interface RunStatusProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
  readonly labels?: Partial<KestrelLabels>;
  /** Render your own element (e.g. a visually hidden `<span>`) with the status's attributes and sentence. */
  readonly asChild?: boolean;
  /** With `asChild`: the one element to render as the status. */
  readonly children?: ReactElement;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * One polite live region with one short sentence per moment: started, waiting for your answer, finished (with the
 * `FinishNotice` note when the last turn did not end normally, e.g. at the length limit), failed,
 * cancelled, stopped following, and what broke (connection lost, stream broke, invalid event, request failed, no
 * answer in time), never phrased like an outcome. It is always in the document (so screen readers pick up its
 * changes) and re-renders only when the announcement changes. When a shown `Run.Error` of the same run announces
 * what broke, the status still holds the sentence but with `aria-live="off"`, so it is heard once; with none, the
 * status says it.
 * Several statuses of one run (two views of it) hold the same sentence; one says it (see run-voice.ts).
 * Exported as `Run.Status` too.
 *
 * @example
 * <RunStatus run={run} className="sr-only" />
 */
export function RunStatus({ run: ownRun, labels, asChild = false, children, className, ref, ...rest }: RunStatusProps) {
  const run = usePartRun(ownRun, 'Run.Status');
  const announcement = useRunSelector(run, selectAnnouncement);
  const details = useRunSelector(run, selectAnnouncementDetails, shallowEqual);
  const [own, setRef] = useOwnElement(ref);
  const error = useRunSelector(run, selectError);
  // Of two views of this run, one says the sentence, the others show it with aria-live="off"; what broke is left to a
  // shown Run.Error when there is one.
  useVoice(run, 'status', announcement, own, brokenAnnouncements.has(announcement) ? error : undefined);
  const text = useRunLabels(labels);
  const Comp = asChild ? Slot : 'div';
  return (
    <Comp
      {...rest}
      ref={setRef}
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className={className}
      data-kestrel-part="status"
      data-announcement={announcement}
    >
      {asChild ? <Slottable>{children}</Slottable> : null}
      {announcementText(announcement, details, text)}
    </Comp>
  );
}
