import type { RunBinding } from '../controller/run-actions.js';
import type { RunClient } from '../client/types.js';
import type { Interaction, InteractionAnswer, ResponseFormat, RunListPage } from '../protocol/types.js';
import type { PayloadSchema } from '../run/payload.js';
import type { RunError } from '../run/run-state.js';

/*
 * The contract of a session (docs/protocol.md#sessions): an ordered conversation of runs. `createSessionController`
 * implements it; `useSession`, `<SessionView>` and the AI SDK bridge are written against these types.
 */

/**
 * What `send` does while a run of the session is live or WAITING (a session has at most one live run).
 * - `queue` (default): the message waits, visibly, and is sent when the live run settles (not while it is WAITING:
 *   the prompt answers a wait; a queued message is sent once the run settles otherwise or the person cancels it).
 * - `reject`: `send` returns `rejected` and nothing is kept.
 * - `cancel-previous`: the live run is cancelled, and the message is sent once it has settled CANCELLED.
 */
export type SessionConcurrency = 'reject' | 'queue' | 'cancel-previous';

/**
 * What is known of the session's older runs (the listing, docs/protocol.md#a-sessions-runs):
 * - `unknown`: nothing asked yet (before the first `loadOlder` of an existing session);
 * - `loading`: a page is on its way;
 * - `more`: older runs exist (`nextCursor` was not null);
 * - `complete`: every run of the session is loaded; from the start for `sessionId: 'new'`, which has nothing older;
 * - `unavailable`: the server has no listing (405, 501, or a 404 whose code is not `session_not_found`): only the
 *   runs started here are shown;
 * - `error`: the last page failed (`historyError` says why); `loadOlder()` tries again;
 * - `not-found`: the server knows no session by the given id (`404 session_not_found`, from the listing or a
 *   start): it expired or was deleted, or the id is mistyped. `sessionId` is null again and the next message starts
 *   a new session, whose id `onSessionId` hears.
 */
export type SessionHistoryStatus = 'unknown' | 'loading' | 'more' | 'complete' | 'unavailable' | 'error' | 'not-found';

/**
 * Where an entry is in its life:
 * - `queued`: typed and kept, not sent yet (policy `queue`);
 * - `sending`: the POST is on its way;
 * - `live`: its run streams (phase `starting`/`streaming`/`reconnecting`);
 * - `waiting`: its run settled WAITING and asks the person;
 * - `settled`: its run settled COMPLETED, FAILED or CANCELLED;
 * - `failed-to-send`: the POST was refused or never answered (`error` says why); the person may retry;
 * - `interrupted`: the run exists but this page lost it short of an outcome (a connection error, or detached by
 *   `dispose`): its run's state says why, and `retry` re-attaches to it. It does not hold the session.
 */
export type SessionEntryStatus =
  'queued' | 'sending' | 'live' | 'waiting' | 'settled' | 'failed-to-send' | 'interrupted';

/** What a run said and asked when it waited: its WAITING output's text and interaction. */
export interface SessionQuestion {
  readonly text: string | null;
  readonly interaction: Interaction;
}

/** One answer given to a WAITING run of the session, in order (the listing's `answers`). */
export interface SessionAnswer {
  readonly interactionId: string;
  readonly attempt: number;
  readonly answer: InteractionAnswer;
  /**
   * The question it answers, for answers given on this page (kept when the listing later lists them): the thread
   * shows it before the answer, with the answer in the question's own words (option and field labels). Absent for
   * answers read from the listing, which carries no questions.
   */
  readonly question?: SessionQuestion;
}

/**
 * An answer the server did not take because the wait was over: `answered-elsewhere` (`409 interaction_answered`:
 * another tab or device answered first) or `gone` (`interaction_not_found`, `run_not_found`, `session_not_found`).
 */
export interface SessionAnswerNotTaken extends SessionAnswer {
  readonly reason: 'answered-elsewhere' | 'gone';
}

/** One message of the person and the run it started. `run` works with every run part (`<Run.Root run={...}>`). */
export interface SessionEntry<P = unknown> {
  /** Stable for the entry's life (a local id before the run id is known): use it as the React key. */
  readonly key: string;
  /** Null while queued or sending. */
  readonly runId: string | null;
  /** What the person typed. */
  readonly input: string;
  /** ISO time: the listing's `createdAt`, or when it was sent here. */
  readonly createdAt: string;
  /** `history`: read from the listing; `local`: sent from this controller. */
  readonly origin: 'history' | 'local';
  readonly status: SessionEntryStatus;
  /** The answers given in this run, oldest first (the person's replies to its questions). */
  readonly answers: readonly SessionAnswer[];
  /**
   * The last answer given on this page that the server did not take because the wait was already over (answered
   * in another tab or device, or the question or run gone: `isWaitOver`): it was not sent on, and `answers` holds
   * what the run really got once the listing is read again. Null otherwise; cleared by an answer that is taken.
   */
  readonly answerNotTaken: SessionAnswerNotTaken | null;
  /** The entry's run: state and actions (respond, cancel, retry, ...). An idle run while queued or sending. */
  readonly run: RunBinding<P>;
  /** Why the POST failed, for `failed-to-send`; null otherwise. */
  readonly error: RunError | null;
}

/** The session as a whole. A new object whenever any of it changes; entries keep their identity while unchanged. */
export interface SessionState<P = unknown> {
  /** Null for a new session until the first `run.started` names it. */
  readonly sessionId: string | null;
  /** Oldest first. */
  readonly entries: readonly SessionEntry<P>[];
  readonly history: SessionHistoryStatus;
  /** Why the last page failed, for `history: 'error'`; null otherwise. */
  readonly historyError: RunError | null;
  /** The key of the entry whose run is live or WAITING (the one the next message would wait for); null if none. */
  readonly activeKey: string | null;
}

/**
 * What `send` did with the message. `rejected` keeps nothing and sends nothing: `run-in-progress` (policy
 * `reject`), `empty-input`, or `disposed` (the controller was disposed and not started again).
 */
export type SessionSendResult =
  | { readonly type: 'sent'; readonly key: string }
  | { readonly type: 'queued'; readonly key: string }
  | { readonly type: 'rejected'; readonly reason: 'run-in-progress' | 'empty-input' | 'disposed' };

/**
 * What `retry(key)` did: for a message that could not be sent, or a retryable FAILED run (whose input goes again as
 * a new message at the end of the thread, by `concurrency`), where that message went (`sent`, `queued`, or
 * `rejected` with `run-in-progress`); `already-retried` when that FAILED run's input is already a later entry of
 * the thread (`key`), so nothing is sent again; `resumed` when an interrupted run is re-attached; `rejected` with
 * `not-retryable` when there is nothing to retry (an unknown key, or a run whose `getRetryMode()` is null), or
 * `disposed` after `dispose()`.
 */
export type SessionRetryResult =
  | SessionSendResult
  | { readonly type: 'already-retried'; readonly key: string }
  | { readonly type: 'resumed'; readonly key: string }
  | { readonly type: 'rejected'; readonly reason: 'not-retryable' };

/**
 * What `refresh()` did: `refreshed`, with the keys of the entries it added (runs started elsewhere) and of the known
 * ones it brought up to date (answered or settled elsewhere); `failed` when the page could not be read (`error`
 * says why; the entries stay as they were); `skipped` when nothing was read: `disposed`, `no-session` (a new
 * session before its first run names it), `unavailable` (the server has no listing), or `not-found` (no session has
 * the id: `history` is then `not-found`, and the next message starts a new session).
 */
export type SessionRefreshResult =
  | {
      readonly type: 'refreshed';
      readonly added: readonly string[];
      readonly updated: readonly string[];
      /**
       * Runs sit unread between the pages read and the thread: the read stopped at its bound (50 pages) before it
       * reached the runs this thread had read from the listing (for a conversation started here, its first run). The
       * thread is missing them until the conversation is loaded again; a later refresh does not look for them.
       */
      readonly gap: boolean;
    }
  | { readonly type: 'failed'; readonly error: RunError }
  | { readonly type: 'skipped'; readonly reason: 'disposed' | 'no-session' | 'unavailable' | 'not-found' };

/** Options of {@link SessionController}; only `client` is required. */
export interface SessionControllerOptions<P = unknown> {
  readonly client: RunClient;
  /** An existing session to continue (e.g. from the URL), or `new` (default): Kestrel names it on the first run. */
  readonly sessionId?: string;
  /** Default `queue`. */
  readonly concurrency?: SessionConcurrency;
  /** Sent with every run unless `send` gives its own. */
  readonly responseFormat?: ResponseFormat;
  readonly payloadSchema?: PayloadSchema<P>;
  /** Runs per listing page (1 to 100). Default 20. */
  readonly pageSize?: number;
  /**
   * Called once when a `new` session learns its id (put it in the URL); also when a session the server did not know
   * (`history: 'not-found'`) is replaced by the one the next message starts.
   */
  readonly onSessionId?: (sessionId: string) => void;
  /**
   * Called with every listing page the controller reads, and the cursor it asked with (`null`: the newest page),
   * e.g. to keep a TanStack Query cache in step (`writeSessionPage` in `@kestrel/react/query`).
   */
  readonly onPage?: (page: RunListPage, before: string | null) => void;
}

/** A conversation of runs, framework-agnostic. Made by `createSessionController`. Methods work unbound. */
export interface SessionController<P = unknown> {
  getState(): SessionState<P>;
  /** The state to render on the server: the entries known at creation, no request made. */
  getServerState(): SessionState<P>;
  subscribe(listener: () => void): () => void;
  /**
   * Sends a message (or queues or rejects it, per `concurrency`). Empty or whitespace-only input is rejected, and
   * so is every message after `dispose()` until `start()`.
   */
  send(input: string, options?: { readonly responseFormat?: ResponseFormat }): SessionSendResult;
  /** Loads the next page of older runs; a no-op while loading, when complete, or when unavailable. */
  loadOlder(): Promise<void>;
  /**
   * Reads the newest page of the listing again and merges it, so this page learns what another tab or device did:
   * runs started there are added (and followed while live), known runs the listing shows further along are brought up
   * to date (a newer attempt, answered elsewhere), never back (a page read before this tab's own progress), and no
   * run shows twice. When the newest page does not reach the runs read before (another tab added more than a page
   * since), older pages are read until they do (at most 50 pages in all), so no run between them is missing, even one
   * just below a message this tab sent; a page that fails
   * fails the whole read, and nothing is merged. One read at a time (a call while one is on its way gets the same
   * promise), each page bounded by the client's `requestTimeoutMs`; reads
   * nothing after `dispose()`, nor once the server is known to have no listing (`history: 'unavailable'`). An answer
   * refused because the wait is over (`isWaitOver`) calls it, so the thread catches up and queued messages go.
   */
  refresh(): Promise<SessionRefreshResult>;
  /**
   * Retries an entry. A `failed-to-send` message goes again, at the end of the queue. A retryable FAILED run stays
   * as it settled, and its input is sent again as a new message at the end of the thread (a new run, where the
   * server appends it), by `concurrency` like any `send`, once: while a later entry has its input, the FAILED
   * run's `getRetryMode()` is null and `retry` returns `already-retried`. An `interrupted` run is re-attached.
   * After `dispose()` nothing is retried until `start()`.
   */
  retry(key: string): SessionRetryResult;
  /**
   * Replaces the client. Every later request (a send, an answer, a resume, a page) uses it; what is in flight goes
   * on with the one it started with, and nothing is sent or reloaded because of the change.
   */
  setClient(client: RunClient): void;
  /** Takes back a queued message (before it is sent). */
  withdraw(key: string): void;
  /** Cancels the live run, if any. */
  cancel(): Promise<void>;
  /**
   * Reads the first page of history (re-attaching to a live run found there) when not done yet. Called by
   * `useSession` on mount; idempotent.
   */
  start(): void;
  /**
   * Detaches every run and stops listening; `send` and `retry` then send nothing (`rejected`, `disposed`). The
   * controller can be started again.
   */
  dispose(): void;
}
