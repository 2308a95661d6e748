import { httpSuffix, type FailureReason } from './failure-reason.js';

/** The texts of the conversation parts (`SessionView`, `Session.*`): part of `KestrelLabels`. */
export interface SessionLabels {
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
  /** Shown on a message that waits for the live run to settle. */
  readonly sessionQueued: string;
  /** Announced once when a message is queued. */
  readonly sessionQueuedAnnouncement: string;
  readonly sessionWithdraw: string;
  readonly sessionSending: string;
  /** A message that could not be sent: why, in the person's terms; `httpStatus` for an HTTP refusal, else null. */
  readonly sessionFailedToSend: (reason: FailureReason, httpStatus: number | null) => string;
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
  /** The session the app named is unknown to the server (expired, deleted, mistyped): the next message starts anew. */
  readonly sessionNotFound: string;
  /** An older page that could not be loaded: why, in the person's terms (as `sessionFailedToSend`). */
  readonly sessionHistoryError: (reason: FailureReason, httpStatus: number | null) => string;
  readonly sessionHistoryStart: string;
  readonly sessionJumpToLatest: string;
}

const failureWords: Record<FailureReason, string> = {
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

/** The English defaults of the conversation parts (in `defaultLabels`; only the session parts import them). */
export const defaultSessionLabels: SessionLabels = {
  sessionThread: 'Conversation',
  sessionEmpty: 'No messages yet. Ask something to begin.',
  sessionYou: 'You',
  sessionYourAnswer: 'Your answer',
  sessionAnswerApproval: (approved) => (approved ? 'Approved' : 'Rejected'),
  sessionAnswerYesNo: (value) => (value ? 'Yes' : 'No'),
  sessionAnswerNotSent: 'Your answer (not sent)',
  sessionQueued: 'Queued: sent when the current run finishes',
  sessionQueuedAnnouncement: 'Message queued. It is sent when the current run finishes.',
  sessionWithdraw: 'Withdraw',
  sessionSending: 'Sending…',
  sessionFailedToSend: (reason, httpStatus) => `Not sent: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
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
  sessionNotFound: 'This conversation was not found: it may have expired. Your next message starts a new one.',
  sessionHistoryError: (reason, httpStatus) =>
    `Older messages could not be loaded: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionHistoryStart: 'Start of the conversation',
  sessionJumpToLatest: 'Jump to latest',
};
