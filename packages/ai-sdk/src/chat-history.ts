import {
  SessionListingError,
  listSessionRuns,
  type PayloadSchema,
  type RunClient,
  type RunSummary,
} from '@kestrel/core';
import type { KestrelUIMessage } from './data-part-schemas.js';
import { describeAnswer } from './interaction-answer.js';
import { runCompletedToUIMessage } from './run-state-to-ui-message.js';

const DEFAULT_MAX_RUNS = 100;
const MAX_RUNS = 1_000;
const MAX_PAGE = 100;

/**
 * How much of the session the messages hold: `complete`; `more` (older runs were left out, past `maxRuns`);
 * `not-found` (no session has this id: a new chat); `unavailable` (the server has no listing: only runs started in
 * this page can be shown).
 */
export type KestrelChatHistoryStatus = 'complete' | 'more' | 'not-found' | 'unavailable';

/** A Kestrel session as `useChat` messages, oldest first, from the session listing. */
export interface KestrelChatHistory<P = unknown> {
  readonly messages: KestrelUIMessage<P>[];
  readonly status: KestrelChatHistoryStatus;
  /** The run still live at the end of the session, if any: `resumeStream()` re-attaches to it. */
  readonly liveRunId: string | null;
}

/** Options of {@link loadChatHistory}. */
export interface LoadChatHistoryOptions<P = unknown> {
  readonly client: RunClient;
  readonly sessionId: string;
  /** The newest runs to read, 1 to 1,000. Default 100. */
  readonly maxRuns?: number;
  readonly payloadSchema?: PayloadSchema<P>;
  readonly signal?: AbortSignal;
}

/** One run as messages: the person's input, each answer they gave (as their reply), then the settled outcome. */
function runMessages<P>(run: RunSummary, payloadSchema: PayloadSchema<P> | undefined): KestrelUIMessage<P>[] {
  const messages: KestrelUIMessage<P>[] = [
    { id: `${run.runId}-input`, role: 'user', parts: [{ type: 'text', text: run.input }] },
  ];
  run.answers.forEach((given, index) => {
    messages.push({
      id: `${run.runId}-answer-${index + 1}`,
      role: 'user',
      parts: [{ type: 'text', text: describeAnswer(given.answer) }],
      metadata: { kestrelAnswer: given.answer },
    });
  });
  if (run.result !== undefined)
    messages.push(runCompletedToUIMessage<P>(run.result, payloadSchema === undefined ? {} : { payloadSchema }));
  return messages;
}

/**
 * Reads a Kestrel session through its listing (docs/protocol.md#a-sessions-runs) as `useChat` messages: the
 * newest `maxRuns` runs, oldest first, each as the person's input, the answers they gave, and the settled result
 * (from the terminal event alone: no reasoning, tools or finish reason). A live run has no assistant message yet;
 * its id is `liveRunId`. An unknown session or a server without the listing is a status, not an error; other
 * failures reject with the core's `RunClientError`.
 *
 * @example
 * const { messages } = await loadChatHistory({ client, sessionId });
 * const chat = useChat<KestrelUIMessage>({ id: sessionId, messages, transport });
 * @throws {RangeError} for a `maxRuns` that is not an integer from 1 to 1,000.
 */
export async function loadChatHistory<P = unknown>(options: LoadChatHistoryOptions<P>): Promise<KestrelChatHistory<P>> {
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  if (!Number.isInteger(maxRuns) || maxRuns < 1 || maxRuns > MAX_RUNS)
    throw new RangeError(`maxRuns must be an integer from 1 to ${MAX_RUNS}, got ${maxRuns}`);
  const pages: RunSummary[][] = [];
  let read = 0;
  let cursor: string | null = null;
  let status: KestrelChatHistoryStatus = 'complete';
  try {
    do {
      const page = await listSessionRuns(options.client, {
        sessionId: options.sessionId,
        limit: Math.min(MAX_PAGE, maxRuns - read),
        ...(cursor === null ? {} : { before: cursor }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      pages.unshift(page.runs);
      read += page.runs.length;
      cursor = page.nextCursor;
      // A page with no runs but a cursor would page forever.
      if (page.runs.length === 0) break;
    } while (cursor !== null && read < maxRuns);
    if (cursor !== null) status = 'more';
  } catch (error) {
    if (!(error instanceof SessionListingError)) throw error;
    return {
      messages: [],
      status: error.reason === 'session-not-found' ? 'not-found' : 'unavailable',
      liveRunId: null,
    };
  }
  const runs = pages.flat();
  const last = runs.at(-1);
  return {
    messages: runs.flatMap((run) => runMessages(run, options.payloadSchema)),
    status,
    liveRunId: last?.live === true ? last.runId : null,
  };
}
