/** Why the transport refused a message before anything was sent to Kestrel. */
export type KestrelChatErrorReason =
  'no-user-message' | 'no-input' | 'answer-required' | 'invalid-answer' | 'not-waiting';

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
