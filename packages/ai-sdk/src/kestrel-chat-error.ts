import { isRunClientError } from '@kestrel/core';
import type { KestrelInteractionData } from './data-part-schemas.js';

/**
 * Why the transport refused a message: before anything was sent to Kestrel, or when Kestrel refused the answer
 * (`answer-refused`) or no longer has the run it answers (`run-gone`).
 */
export type KestrelChatErrorReason =
  'no-user-message' | 'no-input' | 'answer-required' | 'invalid-answer' | 'answer-refused' | 'run-gone';

/**
 * The chat transport could not turn the chat's messages into a Kestrel request. Run failures are not this: they
 * surface as the core's `RunClientError` (`kind` `transport`, `truncated`, `protocol`, `http`, `timeout`).
 */
export class KestrelChatError extends Error {
  override readonly name = 'KestrelChatError';
  readonly reason: KestrelChatErrorReason;
  constructor(reason: KestrelChatErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** The refusal of a plain message while the run really waits on an interaction that text cannot answer. */
export function answerRequired({ interaction }: KestrelInteractionData): KestrelChatError {
  const kind = interaction.kind === 'unsupported' ? interaction.originalKind : interaction.kind;
  return new KestrelChatError(
    'answer-required',
    `The run is waiting for a "${kind}" answer to "${interaction.prompt}"; send it with respondWithAnswer() or interactionAnswerMessage()`,
  );
}

/**
 * Kestrel refused the answer (the interaction is unknown or answered) yet `/result` says the run still waits on it:
 * a server that forgot or expired the interaction. Replaying would show the same question again, so this is an error.
 */
export function answerRefused({ runId, interaction }: KestrelInteractionData): KestrelChatError {
  return new KestrelChatError(
    'answer-refused',
    `Kestrel refused the answer to interaction "${interaction.id}" of run "${runId}", yet the run still waits on it (the server no longer knows the interaction): the answer was not applied`,
  );
}

/** Kestrel no longer has the run: its replay failed with a 404 or 410 (`/result` had answered 404 or 409). */
export function isRunGone(error: unknown): boolean {
  return isRunClientError(error) && error.kind === 'http' && (error.status === 404 || error.status === 410);
}

/** An explicit answer to a WAITING run Kestrel no longer has: it cannot be applied, and is no message of its own. */
export function runGone({ runId, interaction }: KestrelInteractionData): KestrelChatError {
  return new KestrelChatError(
    'run-gone',
    `Kestrel no longer has run "${runId}" (404), so the answer to interaction "${interaction.id}" was not applied; a message without an answer starts a new run`,
  );
}
