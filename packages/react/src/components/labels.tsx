import type { AnswerIssue, RetryMode, RunErrorKind, RunOutputStatus, ToolCallStatus } from '@kestrel/core';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { FinishNoticeKind } from './finish-notice.js';
import type { SessionLabels } from './session/session-labels.js';

/** The texts of the run parts (`RunView`, `Run.*`): {@link KestrelLabels} without the conversation's. */
export interface RunLabels {
  readonly statusStarted: string;
  readonly statusWaiting: string;
  readonly statusFinished: string;
  /** A COMPLETED run whose last root turn did not end normally: `note` is the `finishNotice` text. */
  readonly statusFinishedWithNote: (note: string) => string;
  /** A FAILED outcome only; what broke on the way (phase `error`) has its own announcements below. */
  readonly statusFailed: string;
  /** A FAILED outcome with the server's `message` (cut to 300 characters): why is heard with the outcome. */
  readonly statusFailedWithMessage: (message: string) => string;
  /** Added to "Run finished" when the COMPLETED run's `finalizedPayload` fails the app's `payloadSchema`. */
  readonly statusPayloadInvalid: string;
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
  /** The label of the text of a FAILED run: what it said before the failure, which is not the answer asked for. */
  readonly failedRegion: string;
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
  /** Heads the last progress of a run no longer followed (settled, stopped): a step it reached, not where it is. */
  readonly activityLastStep: string;
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
  /** `Run.Cancel`'s alert when the cancel request failed: the run goes on, and Stop can be pressed again. */
  readonly cancelFailed: string;
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
  /**
   * An answer the server did not take because the wait was already over: answered in another tab or on another
   * device first (`answered-elsewhere`), or the question gone. Shown once the question goes away, instead of nothing.
   */
  readonly answerNotTaken: (reason: 'answered-elsewhere' | 'gone') => string;
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

const toolStatuses: Record<ToolCallStatus, string> = { running: 'running', succeeded: 'done', failed: 'failed' };

/** The English defaults of the run parts (internal: apps read `defaultLabels`, which holds them all). */
export const defaultRunLabels: RunLabels = {
  statusStarted: 'Run started',
  statusWaiting: 'Waiting for your answer',
  statusFinished: 'Run finished',
  statusFinishedWithNote: (note) => `Run finished. ${note}`,
  statusFailed: 'Run failed',
  statusFailedWithMessage: (message) => `Run failed: ${message}`,
  statusPayloadInvalid: "Its structured result does not match this app's schema.",
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
  failedRegion: 'Assistant response, from a run that failed',
  draftRegion: 'Assistant response, in progress',
  draftInProgress: 'Writing… (in progress, not final)',
  draftInterrupted: 'Incomplete text, not a result',
  answerContinues: '… (the answer continues on the page)',
  activity: 'Activity',
  activityReasoning: 'Reasoning',
  activityTools: 'Tool calls',
  activityToolCount: (count) => (count === 1 ? '1 tool call' : `${count} tool calls`),
  activityProgress: 'Progress',
  activityLastStep: 'Last step',
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
  cancelFailed: 'The run could not be stopped and is still running. Try again.',
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
  answerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? 'Not sent: this question was already answered in another tab or on another device.'
      : 'Not sent: this question is no longer open.',
};

/**
 * Every text the components show or announce: the run parts' and the conversation's. Override any of them with a
 * component's `labels` prop or with {@link KestrelLabelsProvider} (for translation); what you do not override keeps
 * its English default.
 */
export interface KestrelLabels extends RunLabels, SessionLabels {}

/**
 * Only what providers override: each part lays it over the English defaults it needs, so a page with only a run
 * view does not ship the conversation's texts.
 */
export const LabelsContext = createContext<Partial<KestrelLabels>>({});

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

/** The run parts' labels in effect: the English defaults, the providers' on top, then a component's `labels` prop. */
export function useRunLabels(override?: Partial<KestrelLabels>): RunLabels {
  const context = useContext(LabelsContext);
  return useMemo(() => ({ ...defaultRunLabels, ...context, ...override }), [context, override]);
}
