import type { AnswerIssue, RetryMode, RunErrorKind, RunOutputStatus, ToolCallStatus } from '@kestrel/core';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { FinishNoticeKind } from './finish-notice.js';
import { httpSuffix, type NotSentReason } from './session/not-sent-reason.js';

/**
 * Every text the components show or announce. Override any of them with a component's `labels` prop or with
 * {@link KestrelLabelsProvider} (for translation); what you do not override keeps its English default.
 */
export interface KestrelLabels {
  readonly statusStarted: string;
  readonly statusWaiting: string;
  readonly statusFinished: string;
  /** A COMPLETED run whose last root turn did not end normally: `note` is the `finishNotice` text. */
  readonly statusFinishedWithNote: (note: string) => string;
  /** A FAILED outcome only; what broke on the way (phase `error`) has its own announcements below. */
  readonly statusFailed: string;
  readonly statusCancelled: string;
  readonly statusDetached: string;
  readonly statusConnectionLost: string;
  readonly statusStreamEnded: string;
  readonly statusProtocolError: string;
  /** A protocol error that came after `run.completed`: an outcome was received, so this must not say "no result". */
  readonly statusProtocolErrorAfterOutcome: string;
  readonly statusRequestFailed: string;
  readonly statusTimedOut: string;
  readonly assistantRegion: string;
  /** The label of the text of a run stopped before it finished (CANCELLED): what it said until then. */
  readonly cancelledRegion: string;
  /** The label of the region holding the draft while it streams (not a live region). */
  readonly draftRegion: string;
  readonly draftInProgress: string;
  readonly draftInterrupted: string;
  /** Ends the announcement of a long answer, cut after about 4,000 characters: the rest is on the page. */
  readonly answerContinues: string;
  readonly activity: string;
  readonly activityReasoning: string;
  readonly activityTools: string;
  readonly activityToolCount: (count: number) => string;
  readonly activityProgress: string;
  readonly activityLogs: string;
  readonly toolStatus: (status: ToolCallStatus) => string;
  /** A tool call's input or output failed its renderer's schema: shown above the issues, instead of the renderer. */
  readonly toolSchemaFailed: (value: 'input' | 'output') => string;
  /**
   * The note on a COMPLETED run's answer when its last root turn ended other than `completed`. `reason` is the
   * finish reason as received (cut to 60 characters): word `other` generically, it is a kind this kit does not know.
   */
  readonly finishNotice: (kind: FinishNoticeKind, reason: string) => string;
  readonly payloadRegion: string;
  readonly payloadUnrendered: string;
  readonly payloadInvalid: string;
  readonly errorTitle: (kind: RunErrorKind, httpStatus: number | null) => string;
  /**
   * A `transport` error whose request got no answer at all (a wrong `baseUrl`, a server that is down): no connection
   * existed to be lost. The alert's title instead of `errorTitle('transport')`, and the status's sentence.
   */
  readonly errorUnreachable: string;
  readonly errorProtocolWhere: (where: { seq: number | null; field: string; eventType: string | null }) => string;
  readonly errorTruncated: (lastSeq: number) => string;
  readonly errorTimeout: (timeoutMs: number) => string;
  readonly errorAction: (mode: RetryMode) => string;
  readonly errorAfterOutcome: string;
  /** Heading of the outcome that arrived before a protocol error. */
  readonly receivedOutcome: (status: RunOutputStatus) => string;
  readonly receivedInteraction: (prompt: string) => string;
  readonly failedTitle: string;
  readonly failedCode: (code: string) => string;
  readonly retry: string;
  /** Heading of a CANCELLED outcome, saying who cancelled when the server said so. */
  readonly cancelledTitle: (by: 'user' | 'system' | undefined) => string;
  /** The reason the server gave (its own words, never empty), shown under the heading. */
  readonly cancelledReason: (reason: string) => string;
  readonly connecting: string;
  readonly reconnecting: (attempt: number, reason: string) => string;
  readonly detached: string;
  readonly followAgain: string;
  readonly cancel: string;
  /** `Run.Copy`: copy the answer; then that it was copied, or that the browser refused. */
  readonly copy: string;
  readonly copied: string;
  readonly copyFailed: string;
  readonly approve: string;
  readonly reject: string;
  readonly comment: string;
  readonly action: string;
  readonly submit: string;
  readonly submitting: string;
  readonly required: string;
  readonly chooseOption: string;
  readonly expiresIn: (remaining: string) => string;
  /** Time left, for an expiry at most three days away. */
  readonly formatRemaining: (ms: number) => string;
  /** An expiry more than three days away: a date reads better than "Expires in 26328 d". */
  readonly expiresOn: (deadline: Date) => string;
  readonly expired: string;
  readonly fixErrors: string;
  /** The message shown next to a control for one problem `validateInteractionAnswer` found (translate by `path`). */
  readonly answerIssue: (issue: AnswerIssue) => string;
  readonly rejected: (message: string) => string;
  /** The answer did not get through (connection failed or no response in time): nothing says the server refused it. */
  readonly unsent: (message: string) => string;
  readonly unsupported: (kind: string) => string;
  /** The conversation's scrolling log of messages and runs. */
  readonly sessionThread: string;
  readonly sessionEmpty: string;
  /** Says who wrote a message: the person. */
  readonly sessionYou: string;
  /** Heading of the person's reply to a run's question. */
  readonly sessionYourAnswer: string;
  readonly sessionAnswerApproval: (approved: boolean) => string;
  /** A yes/no field of a form, in the person's answer as the thread repeats it. */
  readonly sessionAnswerYesNo: (value: boolean) => string;
  /** Heading of an answer given here that the server did not take (the question's wait was already over). */
  readonly sessionAnswerNotSent: string;
  /** Why that answer was not taken, shown under it and announced once: answered elsewhere first, or gone. */
  readonly sessionAnswerNotTaken: (reason: 'answered-elsewhere' | 'gone') => string;
  /** Shown on a message that waits for the live run to settle. */
  readonly sessionQueued: string;
  /** Announced once when a message is queued. */
  readonly sessionQueuedAnnouncement: string;
  readonly sessionWithdraw: string;
  readonly sessionSending: string;
  /** A message that could not be sent: why, in the person's terms; `httpStatus` for an HTTP refusal, else null. */
  readonly sessionFailedToSend: (reason: NotSentReason, httpStatus: number | null) => string;
  readonly sessionSendAgain: string;
  /** The composer's text field. */
  readonly sessionMessage: string;
  readonly sessionComposerHint: string;
  readonly sessionSend: string;
  readonly sessionStop: string;
  /** The composer under policy `reject` while a run is live or waiting. */
  readonly sessionBusy: string;
  /** The composer's hint while a run in the thread waits for an answer: a message sent now does not answer it. */
  readonly sessionWaitingHint: string;
  /** The same, when the session's policy refuses a message while a run is in progress (`reject`). */
  readonly sessionWaitingBlocked: string;
  readonly sessionLoadOlder: string;
  readonly sessionLoadingOlder: string;
  readonly sessionHistoryUnavailable: string;
  readonly sessionHistoryError: (message: string) => string;
  readonly sessionHistoryStart: string;
  readonly sessionJumpToLatest: string;
}

const errorTitles: Record<RunErrorKind, string> = {
  transport: 'Connection lost',
  truncated: 'The stream ended before the run finished',
  protocol: 'The server sent something unexpected',
  http: 'The request failed',
  timeout: 'The server did not answer in time',
};

const receivedStatuses: Record<RunOutputStatus, string> = {
  COMPLETED: 'the run finished',
  FAILED: 'the run failed',
  CANCELLED: 'the run was cancelled',
  WAITING: 'the run was waiting for an answer',
};

const finishNotices: Record<Exclude<FinishNoticeKind, 'other'>, string> = {
  'max-tokens': 'Stopped at the length limit: the answer may be incomplete.',
  error: "The agent's last turn ended with an error.",
  'tool-calls': "The agent's last turn ended with a tool call.",
  cancelled: "The agent's last turn was cancelled.",
};

const notSentWords: Record<NotSentReason, string> = {
  unreachable: 'could not reach the server',
  timeout: 'the server did not answer in time',
  unreadable: "the server's reply could not be read",
  busy: 'another reply in this conversation is still running',
  'too-long': 'the message is too long',
  'too-many': 'too many messages. Wait a moment, then send it again',
  'signed-out': 'please sign in again',
  forbidden: 'you are not allowed to send messages here',
  server: 'the server had a problem',
  refused: 'the server refused it',
};

const toolStatuses: Record<ToolCallStatus, string> = { running: 'running', succeeded: 'done', failed: 'failed' };

/** The English defaults. */
export const defaultLabels: KestrelLabels = {
  statusStarted: 'Run started',
  statusWaiting: 'Waiting for your answer',
  statusFinished: 'Run finished',
  statusFinishedWithNote: (note) => `Run finished. ${note}`,
  statusFailed: 'Run failed',
  statusCancelled: 'Run cancelled',
  statusDetached: 'Stopped following the run',
  statusConnectionLost: 'Connection lost: no result received',
  statusStreamEnded: 'The stream broke before the run finished',
  statusProtocolError: 'The server sent an invalid event',
  statusProtocolErrorAfterOutcome: 'The server sent an invalid event after the outcome',
  statusRequestFailed: 'Request failed: no result received',
  statusTimedOut: 'No answer in time: no result received',
  assistantRegion: 'Assistant response',
  cancelledRegion: 'Assistant response, stopped before the end',
  draftRegion: 'Assistant response, in progress',
  draftInProgress: 'Writing… (in progress, not final)',
  draftInterrupted: 'Incomplete text, not a result',
  answerContinues: '… (the answer continues on the page)',
  activity: 'Activity',
  activityReasoning: 'Reasoning',
  activityTools: 'Tool calls',
  activityToolCount: (count) => (count === 1 ? '1 tool call' : `${count} tool calls`),
  activityProgress: 'Progress',
  activityLogs: 'Logs',
  toolStatus: (status) => toolStatuses[status],
  toolSchemaFailed: (value) =>
    `This tool call's ${value} does not match this app's schema, so it is shown as received:`,
  finishNotice: (kind, reason) =>
    kind === 'other' ? `The agent's last turn ended with reason "${reason}".` : finishNotices[kind],
  payloadRegion: 'Application content',
  payloadUnrendered: 'This run returned a structured result that this view does not display.',
  payloadInvalid: "The structured result does not match this app's schema:",
  errorTitle: (kind, httpStatus) =>
    kind === 'http' && httpStatus !== null ? `${errorTitles.http} (HTTP ${httpStatus})` : errorTitles[kind],
  errorUnreachable: 'Could not reach the server',
  errorProtocolWhere: ({ seq, field, eventType }) =>
    [
      eventType === null ? null : `event ${eventType}`,
      seq === null ? null : `seq ${seq}`,
      field === '' ? null : `field ${field}`,
    ]
      .filter((part) => part !== null)
      .join(', '),
  errorTruncated: (lastSeq) => `No outcome was received; the last event was seq ${lastSeq}.`,
  errorTimeout: (timeoutMs) => `Gave up after ${Math.round(timeoutMs / 1000)} s.`,
  errorAction: (mode) => (mode === 'resume' ? 'Reconnect' : 'Retry'),
  errorAfterOutcome: "It arrived after the run's outcome was received.",
  receivedOutcome: (status) => `Received before the error: ${receivedStatuses[status]}`,
  receivedInteraction: (prompt) => `It asked: ${prompt}`,
  failedTitle: 'The run failed',
  failedCode: (code) => `Error code: ${code}`,
  retry: 'Try again',
  cancelledTitle: (by) =>
    by === 'user'
      ? 'You cancelled the run'
      : by === 'system'
        ? 'The system cancelled the run'
        : 'The run was cancelled',
  cancelledReason: (reason) => `Reason: ${reason}`,
  connecting: 'Connecting…',
  reconnecting: (attempt, reason) => `Connection interrupted (${reason}). Reconnecting, attempt ${attempt}…`,
  detached: 'No longer following this run. It goes on on the server.',
  followAgain: 'Follow again',
  cancel: 'Stop the run',
  copy: 'Copy answer',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  approve: 'Approve',
  reject: 'Reject',
  comment: 'Comment (optional)',
  action: 'Action',
  submit: 'Send answer',
  submitting: 'Sending…',
  required: 'required',
  chooseOption: 'Choose…',
  expiresIn: (remaining) => `Expires in ${remaining}`,
  formatRemaining: (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const [d, h, m] = [Math.floor(s / 86_400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60];
    if (d > 0) return `${d} d ${h} h`;
    if (h > 0) return `${h} h ${m} min`;
    return m > 0 ? `${m} min ${s % 60} s` : `${s % 60} s`;
  },
  expiresOn: (deadline) =>
    `Expires on ${new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' }).format(deadline)}`,
  expired: 'This request has expired and can no longer be answered.',
  fixErrors: 'Check the highlighted answers.',
  // The validator's messages are English already; a locale words `issue.code` instead (see locales/).
  answerIssue: (issue) => issue.message,
  rejected: (message) => `Your answer was not accepted: ${message}`,
  unsent: (message) => `Your answer did not go through: ${message}. It is kept here: send it again.`,
  unsupported: (kind) => `This request ("${kind}") cannot be answered here.`,
  sessionThread: 'Conversation',
  sessionEmpty: 'No messages yet. Ask something to begin.',
  sessionYou: 'You',
  sessionYourAnswer: 'Your answer',
  sessionAnswerApproval: (approved) => (approved ? 'Approved' : 'Rejected'),
  sessionAnswerYesNo: (value) => (value ? 'Yes' : 'No'),
  sessionAnswerNotSent: 'Your answer (not sent)',
  sessionAnswerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? 'Not sent: this question was already answered in another tab or on another device.'
      : 'Not sent: this question is no longer open.',
  sessionQueued: 'Queued: sent when the current run finishes',
  sessionQueuedAnnouncement: 'Message queued. It is sent when the current run finishes.',
  sessionWithdraw: 'Withdraw',
  sessionSending: 'Sending…',
  sessionFailedToSend: (reason, httpStatus) => `Not sent: ${notSentWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionSendAgain: 'Send again',
  sessionMessage: 'Message',
  sessionComposerHint: 'Enter sends, Shift+Enter adds a line.',
  sessionSend: 'Send',
  sessionStop: 'Stop',
  sessionBusy: 'A run is in progress. Wait for it to finish.',
  sessionWaitingHint: 'A question above is waiting for your answer. A message sent here does not answer it.',
  sessionWaitingBlocked: 'Answer the question above first. Messages can be sent once that run finishes.',
  sessionLoadOlder: 'Load older messages',
  sessionLoadingOlder: 'Loading older messages…',
  sessionHistoryUnavailable: 'Older messages are not available from this server.',
  sessionHistoryError: (message) => `Older messages could not be loaded: ${message}`,
  sessionHistoryStart: 'Start of the conversation',
  sessionJumpToLatest: 'Jump to latest',
};

const LabelsContext = createContext<KestrelLabels>(defaultLabels);

/**
 * Overrides labels for every Kestrel component below it (nested providers merge).
 *
 * @example
 * <KestrelLabelsProvider labels={{ approve: 'Genehmigen', reject: 'Ablehnen' }}><RunView run={run} /></KestrelLabelsProvider>
 */
export function KestrelLabelsProvider({ labels, children }: { labels: Partial<KestrelLabels>; children?: ReactNode }) {
  const parent = useContext(LabelsContext);
  const merged = useMemo(() => ({ ...parent, ...labels }), [parent, labels]);
  return <LabelsContext.Provider value={merged}>{children}</LabelsContext.Provider>;
}

/** The labels in effect: the provider's, with a component's own `labels` prop on top. */
export function useKestrelLabels(override?: Partial<KestrelLabels>): KestrelLabels {
  const context = useContext(LabelsContext);
  return useMemo(() => (override === undefined ? context : { ...context, ...override }), [context, override]);
}
