/** One message as framed by server-sent events. */
export interface SSEMessage {
  /** The `event:` field, when the server sent one. */
  readonly event?: string | undefined;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  /** The `id:` field of this message, when present. */
  readonly id?: string | undefined;
}
