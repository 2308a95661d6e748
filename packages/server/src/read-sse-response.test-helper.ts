import { decodeSSE, type SSEMessage } from '@kestrel/core';

export interface SSEResponseReading {
  readonly messages: SSEMessage[];
  readonly comments: string[];
  /** `clean` when the body ended, `dropped` when the connection was cut under it. */
  readonly ending: 'clean' | 'dropped';
}

/** Reads a whole event-stream response as a browser's client would, noting how it ended. */
export async function readSSEResponse(response: Response): Promise<SSEResponseReading> {
  const messages: SSEMessage[] = [];
  const comments: string[] = [];
  if (response.body === null) return { messages, comments, ending: 'clean' };
  try {
    for await (const message of decodeSSE(response.body, { onComment: (comment) => comments.push(comment) }))
      messages.push(message);
    return { messages, comments, ending: 'clean' };
  } catch {
    return { messages, comments, ending: 'dropped' };
  }
}
