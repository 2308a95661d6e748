import { callSafely } from '../callbacks.js';
import { errorMessage } from '../error-message.js';
import { SessionListingError } from '../client/session-listing-error.js';
import { listSessionRuns } from '../client/list-session-runs.js';
import { RunClientError } from '../client/run-client-error.js';
import type { RunControllerOptions } from '../controller/create-run-controller.js';
import { MAX_LIST_LIMIT } from '../protocol/kestrel-routes.js';
import type { ResponseFormat, RunSummary } from '../protocol/types.js';
import { getRetryMode } from '../controller/retry-mode.js';
import { toProtocolRunError } from '../run/protocol-run-error.js';
import { isFollowing, type RunError } from '../run/run-state.js';
import { isRunInProgress, isSessionNotFound } from './entry-status.js';
import { historyAfter, leavesGap, mergePage, MAX_CATCH_UP_PAGES, type PageMode } from './history-paging.js';
import { isBehind, listedAnswers } from './known-run.js';
import { createEntryRecord, markRetried, type EntryRecord } from './session-entry.js';
import { decideSend, type SessionHold } from './session-policy.js';
import type {
  SessionController,
  SessionControllerOptions,
  SessionHistoryStatus,
  SessionRefreshResult,
  SessionRetryResult,
  SessionSendResult,
  SessionState,
} from './session-types.js';

const DEFAULT_PAGE_SIZE = 20;
/** How often one message may meet `run_in_progress` before it is shown as not sent (no live run could be found). */
const MAX_CONFLICTS = 2;

function pageSizeOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIST_LIMIT)
    throw new RangeError(`pageSize must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${value}`);
  return value;
}

/** A failed listing as the `historyError` the app shows. */
function historyErrorOf(error: unknown): RunError {
  if (error instanceof RunClientError && error.detail !== null) return error.detail;
  if (error instanceof SessionListingError)
    return { kind: 'http', status: error.status, code: error.code, message: error.message };
  return { kind: 'transport', message: errorMessage(error) };
}

/**
 * A conversation of runs, framework-agnostic (docs/sessions.md): the session's entries in order, each with a run
 * binding every run part takes; history read page by page through the listing (a live run found there is
 * re-attached, a WAITING one stays answerable); one live run at a time by `concurrency` (a `409 run_in_progress`
 * queues the message behind the live run it finds); `sessionId: 'new'` learns its id from the first run.
 *
 * @example
 * const session = createSessionController({ client, sessionId: 'ses_42', onSessionId: (id) => history.replaceState(null, '', `?session=${id}`) });
 * session.subscribe(() => render(session.getState()));
 * session.start();
 * session.send('And in euros?');
 * @throws {RangeError} for a `pageSize` that is not an integer from 1 to 100.
 */
export function createSessionController<P = unknown>(options: SessionControllerOptions<P>): SessionController<P> {
  const pageSize = pageSizeOf(options.pageSize);
  const concurrency = options.concurrency ?? 'queue';
  const given = options.sessionId === undefined || options.sessionId === 'new' ? null : options.sessionId;
  let sessionId = given;
  /** Read at each request, so `setClient` changes what comes next and leaves what is in flight alone. */
  let client = options.client;
  /** Whether `onSessionId` hears the id the first run names: for `'new'`, and after the given session was not found. */
  let adopt = given === null;
  let named = false;
  let records: EntryRecord<P>[] = [];
  // A conversation this page starts (`'new'`) has nothing older than what it sends: no page to offer or read.
  const firstHistory: SessionHistoryStatus = given === null ? 'complete' : 'unknown';
  let history: SessionHistoryStatus = firstHistory;
  /** The server answered that it has no listing: it does not grow one, so it is not asked again. */
  let noListing = false;
  let historyError: RunError | null = null;
  let cursor: string | null = null;
  /**
   * The cursors older pages were read with since the newest one: a listing that hands one out again would have
   * `loadOlder` (and `<Session.LoadOlder auto>`) read the same pages for ever.
   */
  let cursorsRead = new Set<string>();
  // The newest run of the last newest page merged: a later refresh reads back until it holds it (see leavesGap).
  let anchor: string | null = null;
  /** Which page failed last, so `loadOlder` tries it again. */
  let failedPage: PageMode | null = null;
  let loading: Promise<void> | null = null;
  /** Counts the page reads that move the history status: only the latest may set it (dispose + start overlap). */
  let historyTurn = 0;
  /** WAITING runs the person moved past (cancel, or policy `cancel-previous`): answerable, no longer holding the session. */
  const setAside = new Set<string>();
  const requests = new Set<AbortController>();
  const listeners = new Set<{ readonly listener: () => void }>();
  let started = false;
  /** After `dispose` nothing is sent until `start` again. */
  let disposed = false;
  let serial = 0;
  let flushing = false;
  /** A refused message waits while the newest page is read again to find the live run that refused it. */
  let reloading = false;
  let refreshing: Promise<SessionRefreshResult> | null = null;
  /** An entry whose run is being replaced: the idle state in between is never published. */
  let quiet: EntryRecord<P> | null = null;
  const unsubscribes = new Map<EntryRecord<P>, () => void>();
  /** Local entries whose run id has been checked against the listed ones. */
  const checkedIds = new WeakSet<EntryRecord<P>>();

  const serverState: SessionState<P> = {
    sessionId: given,
    entries: [],
    history: firstHistory,
    historyError: null,
    activeKey: null,
  };
  let state = serverState;

  const controllerOptions = (): RunControllerOptions<P> => ({
    client,
    sessionId: sessionId ?? 'new',
    responseFormat: options.responseFormat,
    payloadSchema: options.payloadSchema,
  });

  /** The entry holding the session: the newest one with a run, when that run is being sent, live or WAITING. */
  const holder = (): { record: EntryRecord<P>; hold: Exclude<SessionHold, 'none'> } | null => {
    for (let index = records.length - 1; index >= 0; index -= 1) {
      const record = records[index] as EntryRecord<P>;
      const status = record.snapshot().status;
      if (status === 'queued' || status === 'failed-to-send') continue;
      if (setAside.has(record.key)) return null;
      if (status === 'sending' || status === 'live') return { record, hold: 'live' };
      return status === 'waiting' ? { record, hold: 'waiting' } : null;
    }
    return null;
  };

  /** The list `markRetried` last read: inputs never change, so a retry can only appear when the list is replaced. */
  let marked: readonly EntryRecord<P>[] | null = null;
  const markRetriedOnce = (): void => {
    if (marked === records) return;
    markRetried(records);
    marked = records;
  };

  const publish = (): void => {
    markRetriedOnce(); // not at every streamed event of a long thread
    state = {
      sessionId,
      entries: records.map((record) => record.snapshot()),
      history,
      historyError,
      activeKey: holder()?.record.key ?? null,
    };
    for (const entry of [...listeners]) entry.listener();
  };

  /**
   * The server knows no session by this id (it expired or was deleted, or the id is mistyped): the conversation
   * goes on as `'new'`, so the next message creates a session (told through `onSessionId`) instead of every message
   * failing; `history` says `not-found`. The entries of its runs go (the server no longer has them); messages with
   * no run (queued, refused) stay, and nothing is sent again by itself.
   */
  const forget = (): void => {
    // Its runs went with it: a thread showing them above the next message would read as one conversation, which the
    // new session (no memory of them) is not, and a reload would not show them. Messages without a run stay.
    for (const record of records) if (record.runId !== null) drop(record);
    sessionId = null;
    adopt = true;
    named = false;
    history = 'not-found';
    historyError = null;
    failedPage = null;
    cursor = null;
    cursorsRead = new Set();
    anchor = null;
  };

  const sendRecord = (record: EntryRecord<P>): void => {
    record.delivery = 'sent';
    record.sentTo = sessionId;
    record.controller.setOptions(controllerOptions());
    record.controller.start(
      record.responseFormat === undefined
        ? record.input
        : { input: record.input, responseFormat: record.responseFormat },
    );
  };

  /** Sends the first queued message once nothing holds the session. */
  const flush = (): void => {
    if (flushing || reloading || disposed) return;
    flushing = true;
    try {
      const next = records.find((record) => record.delivery === 'queued');
      if (next !== undefined && holder() === null) sendRecord(next);
    } finally {
      flushing = false;
    }
  };

  /** What a change of an entry's run means for the session: its id, a conflict, the queue. */
  const changed = (record: EntryRecord<P>): void => {
    if (record === quiet) return;
    const runState = record.controller.getState();
    if (record.origin === 'local' && runState.runId !== null && !checkedIds.has(record)) {
      checkedIds.add(record);
      // A refresh may have listed this run before its `run.started` named it here: the entry sent here stays.
      const twin = records.find((other) => other !== record && other.runId === runState.runId);
      if (twin !== undefined) drop(twin);
    }
    if (sessionId === null && runState.sessionId !== null) {
      sessionId = runState.sessionId;
      // A session started in place of one not found has, like any new one, nothing older.
      if (history === 'not-found') history = 'complete';
      for (const other of records) other.controller.setOptions(controllerOptions());
    }
    if (sessionId !== null && adopt && !named) {
      named = true;
      const learned = sessionId;
      callSafely(() => options.onSessionId?.(learned));
    }
    if (record.delivery === 'sent' && sessionId !== null && record.sentTo === sessionId && isSessionNotFound(runState))
      forget();
    if (record.delivery === 'sent' && isRunInProgress(runState)) {
      // Another tab or device has a live run in this session: the message waits for it, found on the first page.
      record.conflicts += 1;
      if (record.conflicts > MAX_CONFLICTS) {
        record.delivery = 'failed';
        record.refused = runState.error;
      } else {
        record.delivery = 'queued';
        reloading = true;
        void loadPage('newest', 'conflict');
      }
      record.controller.reset(); // notifies again: by now the message is queued (or failed), not sending
    }
    flush();
    publish();
  };

  const addRecord = (record: EntryRecord<P>): EntryRecord<P> => {
    unsubscribes.set(
      record,
      record.controller.subscribe(() => changed(record)),
    );
    return record;
  };

  /** Takes an entry out of the thread; its run is detached (never cancelled: it is shown by another entry). */
  const drop = (record: EntryRecord<P>): void => {
    unsubscribes.get(record)?.();
    unsubscribes.delete(record);
    records = records.filter((candidate) => candidate !== record);
    if (isFollowing(record.controller.getState().phase)) record.controller.detach();
  };

  const localRecord = (input: string, responseFormat: SessionControllerOptions['responseFormat']): EntryRecord<P> => {
    serial += 1;
    const key = `local-${serial}`;
    const record: EntryRecord<P> = createEntryRecord<P>({
      key,
      input,
      createdAt: new Date().toISOString(),
      origin: 'local',
      responseFormat: responseFormat ?? options.responseFormat,
      delivery: 'queued',
      controllerOptions: controllerOptions(),
      retry: () => controller.retry(key),
      changed: () => changed(record),
      outdated,
    });
    return addRecord(record);
  };

  const historyRecord = (run: RunSummary): EntryRecord<P> => {
    const key = `run-${run.runId}`;
    const record: EntryRecord<P> = createEntryRecord<P>({
      key,
      input: run.input,
      createdAt: run.createdAt,
      origin: 'history',
      runId: run.runId,
      answers: listedAnswers(run),
      delivery: 'sent',
      controllerOptions: controllerOptions(),
      retry: () => controller.retry(key),
      changed: () => changed(record),
      outdated,
    });
    return record;
  };

  /** Shows a listed run: re-attached while live, settled from its result, else replayed from its events. */
  const show = (record: EntryRecord<P>, run: RunSummary): void => {
    if (!run.live && run.result !== undefined) record.controller.resumeSettled(run.result);
    else record.controller.resume(run.runId);
  };

  const attach = (record: EntryRecord<P>, run: RunSummary): void => {
    show(record, run);
    addRecord(record);
  };

  /**
   * Brings the known entries of the newest page up to what it says (answers given and runs moved on elsewhere);
   * returns the keys of those it changed.
   */
  const catchUp = (runs: readonly RunSummary[], added: readonly EntryRecord<P>[]): string[] => {
    const updated: string[] = [];
    for (const run of runs) {
      const record = records.find((candidate) => candidate.runId === run.runId);
      if (record === undefined || added.includes(record)) continue;
      const answered = run.answers.length > record.answers.length;
      if (answered) record.answers = listedAnswers(run, record.answers);
      const behind = isBehind(record.controller.getState(), run);
      if (behind) {
        // It no longer waits on what the person moved past; `resume` keeps a run it already shows, so reset first.
        setAside.delete(record.key);
        quiet = record;
        try {
          record.controller.reset();
        } finally {
          quiet = null;
        }
        show(record, run);
      }
      if (answered || behind) updated.push(record.key);
    }
    return updated;
  };

  /**
   * Reads one page. `older` pages (and the first one) move the cursor and the history status; a `conflict` reload
   * of the newest page only finds the live run a refused message waits for.
   */
  const loadPage = async (
    mode: PageMode,
    why: 'history' | 'conflict' | 'refresh' = 'history',
  ): Promise<SessionRefreshResult> => {
    if (sessionId === null) {
      if (why === 'conflict') reloading = false;
      return { type: 'skipped', reason: 'no-session' };
    }
    const first = mode === 'newest' && (history === 'unknown' || (history === 'error' && failedPage === 'newest'));
    const moves = mode === 'older' || first;
    const turn = moves ? ++historyTurn : historyTurn;
    if (moves) {
      history = 'loading';
      historyError = null;
      publish();
    }
    const abort = new AbortController();
    requests.add(abort);
    // Every page of one read goes to the session and client it began with: a setClient mid-read changes none.
    const [listedSession, listedClient] = [sessionId, client];
    try {
      const read = async (before: string | null) => {
        const listed = await listSessionRuns(listedClient, {
          sessionId: listedSession,
          before: before ?? undefined,
          limit: pageSize,
          signal: abort.signal,
        });
        const heard = options.onPage;
        if (heard !== undefined) callSafely(heard, listed, before);
        return listed;
      };
      const before = mode === 'older' ? cursor : null;
      const page = await read(before);
      if (moves) {
        if (before === null) cursorsRead = new Set();
        else cursorsRead.add(before);
        const next = page.nextCursor;
        if (next !== null && cursorsRead.has(next)) {
          throw new RunClientError(
            toProtocolRunError({
              message: `The session's listing gave the cursor "${next}" again: its older pages never end`,
              path: ['nextCursor'],
              raw: next,
            }),
          );
        }
      }
      let runs = page.runs;
      // A refresh (or a conflict reload) whose oldest run read is not shown (another tab added more than a page since)
      // reads on back until it is, so the runs in between are not missing from a thread that says it is complete.
      // All or nothing: a page that fails fails the read, since merging the newer pages alone would show their
      // oldest run, and no later refresh would then see the gap below it.
      let older = page;
      for (let pages = 1; !moves && pages < MAX_CATCH_UP_PAGES; pages++) {
        if (older.nextCursor === null || !leavesGap(records, runs, history, anchor)) break;
        older = await read(older.nextCursor);
        runs = [...older.runs, ...runs];
      }
      // Stopped by the bound with runs still unread between the pages and the thread: the result says so.
      const gap = !moves && older.nextCursor !== null && leavesGap(records, runs, history, anchor);
      // The session was found unknown while this page was read (a start answered 404): its runs are not this thread's.
      if (sessionId !== listedSession) return { type: 'skipped', reason: 'not-found' };
      const byId = new Map(runs.map((run) => [run.runId, run]));
      const merged = mergePage(records, runs, mode, historyRecord);
      records = merged.entries;
      for (const record of merged.added) {
        const run = record.runId === null ? undefined : byId.get(record.runId);
        if (run !== undefined) attach(record, run);
      }
      const updated = mode === 'newest' ? catchUp(runs, merged.added) : [];
      if (mode === 'newest') anchor = page.runs.at(-1)?.runId ?? anchor;
      if (moves) {
        cursor = page.nextCursor;
        history = historyAfter(page.nextCursor);
        failedPage = null;
      }
      return { type: 'refreshed', added: merged.added.map((record) => record.key), updated, gap };
    } catch (error) {
      if (abort.signal.aborted) {
        if (moves && turn === historyTurn && sessionId === listedSession)
          history = first ? 'unknown' : cursor === null ? 'complete' : 'more';
        return { type: 'skipped', reason: 'disposed' };
      }
      if (error instanceof SessionListingError && error.reason === 'session-not-found') {
        // Only while the session read is still this page's: one learned since (a message sent as new) stays.
        if (sessionId === listedSession) forget();
        return { type: 'skipped', reason: 'not-found' };
      }
      if (error instanceof SessionListingError && error.reason === 'unavailable') {
        noListing = true;
        // A conversation started here has nothing older either way: the note would say history is missing.
        if (given !== null && sessionId === listedSession) history = 'unavailable';
        failedPage = null;
        return { type: 'skipped', reason: 'unavailable' };
      }
      // Not over `not-found` found meanwhile: the failed page was of the session that is gone.
      if (moves && sessionId === listedSession) {
        history = 'error';
        historyError = historyErrorOf(error);
        failedPage = mode;
      }
      return { type: 'failed', error: historyErrorOf(error) };
    } finally {
      requests.delete(abort);
      if (why === 'conflict') {
        // The live run found is what the message waits for; with none found, it is sent again (MAX_CONFLICTS bounds it).
        reloading = false;
      }
      // A run found settled (or a reload that found none) lets a queued message go.
      if (why !== 'history') flush();
      publish();
    }
  };

  /** What an entry does when its answer came too late (answered elsewhere): the thread catches up. */
  function outdated(): void {
    void controller.refresh();
  }

  /**
   * Puts a message at the end of the thread and sends, queues or refuses it by `concurrency` (what `send` does):
   * a new one, or a message that could not be sent (`again`), which moves to the end when it is not refused.
   */
  const submit = (
    input: string,
    responseFormat: ResponseFormat | undefined,
    again?: EntryRecord<P>,
  ): SessionSendResult => {
    // A disposed controller shows nobody its runs (useSession made another): a stale handler starts nothing.
    if (disposed) return { type: 'rejected', reason: 'disposed' };
    if (input.trim() === '') return { type: 'rejected', reason: 'empty-input' };
    const held = holder();
    const queuedAhead = records.some((record) => record !== again && record.delivery === 'queued');
    const decision = decideSend(concurrency, held?.hold ?? 'none', queuedAhead);
    if (decision === 'reject') return { type: 'rejected', reason: 'run-in-progress' };
    let record: EntryRecord<P>;
    if (again === undefined) record = localRecord(input, responseFormat);
    else {
      record = again;
      record.controller.reset();
      record.refused = null;
      record.conflicts = 0;
      record.delivery = 'queued';
    }
    records = [...records.filter((candidate) => candidate !== record), record];
    switch (decision) {
      case 'send':
        sendRecord(record);
        publish();
        return { type: 'sent', key: record.key };
      case 'set-aside-then-send':
        if (held !== null) setAside.add(held.record.key);
        sendRecord(record);
        publish();
        return { type: 'sent', key: record.key };
      case 'cancel-then-queue':
        publish();
        // A failed cancel leaves the message queued: it goes when the run settles anyway, or is withdrawn.
        held?.record.controller.cancel().catch(() => undefined);
        return { type: 'queued', key: record.key };
      case 'queue':
        publish();
        return { type: 'queued', key: record.key };
      default:
        return decision satisfies never;
    }
  };

  const controller: SessionController<P> = {
    getState: () => state,
    getServerState: () => serverState,
    subscribe(listener) {
      const entry = { listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    send(input, sendOptions = {}): SessionSendResult {
      return submit(input, sendOptions.responseFormat);
    },
    loadOlder() {
      if (loading !== null) return loading;
      const mode: PageMode | null =
        history === 'more'
          ? 'older'
          : history === 'unknown'
            ? 'newest'
            : history === 'error'
              ? (failedPage ?? 'newest')
              : null;
      if (mode === null) return Promise.resolve();
      const current: Promise<void> = loadPage(mode)
        .then(() => undefined)
        .finally(() => {
          if (loading === current) loading = null;
        });
      loading = current;
      return current;
    },
    refresh() {
      if (disposed) return Promise.resolve({ type: 'skipped', reason: 'disposed' });
      // A server without the listing does not grow one: no request each time the page comes back into view.
      if (noListing) return Promise.resolve({ type: 'skipped', reason: 'unavailable' });
      if (refreshing !== null) return refreshing;
      const current = loadPage('newest', 'refresh').finally(() => {
        if (refreshing === current) refreshing = null;
      });
      refreshing = current;
      return current;
    },
    retry(key): SessionRetryResult {
      if (disposed) return { type: 'rejected', reason: 'disposed' };
      const record = records.find((candidate) => candidate.key === key);
      if (record === undefined) return { type: 'rejected', reason: 'not-retryable' };
      // A message that could not be sent goes again, at the end, by `concurrency` like any send.
      if (record.snapshot().status === 'failed-to-send') return submit(record.input, record.responseFormat, record);
      const mode = getRetryMode(record.controller.getState());
      switch (mode) {
        case 'restart':
          // A retryable FAILED run stays as it settled: on the wire a retry is a new run with the same input, which
          // the server appends to the session. So it is a new message at the end, by `concurrency` like any send,
          // once: a second click (or a second tab's history) finds that message and sends nothing.
          markRetriedOnce();
          if (record.retriedAs !== null) return { type: 'already-retried', key: record.retriedAs };
          return submit(record.input, record.responseFormat);
        case 'resume':
          record.controller.retry();
          return { type: 'resumed', key };
        case null:
          return { type: 'rejected', reason: 'not-retryable' };
        default:
          return mode satisfies never;
      }
    },
    withdraw(key) {
      const record = records.find((candidate) => candidate.key === key);
      if (record === undefined || record.delivery !== 'queued') return;
      // Dropped, not only filtered out: its subscription to its controller goes too, or each withdrawn message stays.
      drop(record);
      publish();
    },
    async cancel() {
      const held = holder();
      if (held === null) return;
      if (held.hold === 'waiting') {
        // A WAITING run has settled: nothing to cancel on the server. It stays answerable; queued messages go.
        setAside.add(held.record.key);
        flush();
        publish();
        return;
      }
      await held.record.controller.cancel();
    },
    setClient(next) {
      if (next === client) return;
      client = next;
      for (const record of records) record.controller.setOptions(controllerOptions());
    },
    start() {
      if (started) return;
      started = true;
      disposed = false;
      for (const record of records) {
        const runState = record.controller.getState();
        if (runState.phase === 'detached' && record.runId !== null) record.controller.resume(record.runId);
      }
      if (sessionId !== null && given !== null) {
        if (history === 'unknown' || history === 'loading') {
          history = 'unknown';
          void controller.loadOlder();
        } else void loadPage('newest', 'conflict');
      }
    },
    dispose() {
      started = false;
      disposed = true;
      for (const abort of [...requests]) abort.abort();
      requests.clear();
      loading = null;
      refreshing = null;
      for (const record of records) {
        if (isFollowing(record.controller.getState().phase)) record.controller.detach();
      }
      publish();
    },
  };
  return controller;
}
