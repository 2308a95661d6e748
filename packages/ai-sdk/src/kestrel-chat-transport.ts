import {
  InteractionAnswerError,
  isWaitOver,
  RunClientError,
  isRunClientError,
  validateInteractionAnswer,
  type InteractionAnswer,
  type PayloadSchema,
  type ResponseFormat,
  type RunClient,
  type RunCompletedEvent,
  type RunHandle,
} from '@kestrel/core';
import type { ChatRequestOptions, ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { createChunkQueue } from './chunk-queue.js';
import type { KestrelInteractionData, KestrelMessageMetadata, KestrelUIMessage } from './data-part-schemas.js';
import { answerFromMetadata, lastKestrelSession, messageText, pendingInteraction } from './interaction-answer.js';
import { KestrelChatError, answerRefused, answerRequired, isRunGone, runGone } from './kestrel-chat-error.js';
import { firstSign, waitsOn } from './first-sign.js';
import { createRunChunkWriter } from './run-chunk-writer.js';
import { createMemoryRunStore, type KestrelRunStore } from './run-store.js';
import { loadChatHistory, type KestrelChatHistory } from './chat-history.js';

/** Where the run stands against the chat's copy of its wait: still that wait, settled since, or streaming. */
type ServerWait =
  | { readonly kind: 'same' }
  | { readonly kind: 'moved-on'; readonly result: RunCompletedEvent }
  | { readonly kind: 'live' };

/** Options of `new KestrelChatTransport(...)`: the run client, what `stop()` does, structured output and where runs are remembered. */
export interface KestrelChatTransportOptions<P = unknown> {
  /** The run client (`createRunClient`) that talks to Kestrel or to your backend in front of it. */
  readonly client: RunClient;
  /**
   * What `useChat`'s `stop()` (an aborted request) does to the run. `detach` (default): stop watching, the run
   * goes on on the server and `resumeStream()` picks it up again. `cancel`: also ask Kestrel to cancel it.
   */
  readonly onAbort?: 'detach' | 'cancel';
  /** Structured output to request on every run. */
  readonly responseFormat?: ResponseFormat;
  /** The app's schema for the finalized payload: the `data-kestrel-payload` part is checked and typed by it. */
  readonly payloadSchema?: PayloadSchema<P>;
  /**
   * The Kestrel session a new run goes to. Default: the session of the chat's latest Kestrel message, so a chat is
   * one conversation; a chat without one starts a new session.
   */
  readonly sessionId?: (context: {
    readonly chatId: string;
    readonly messages: readonly UIMessage[];
  }) => string | undefined;
  /** Where the run each chat is following is kept, for `reconnectToStream`. Default: in memory. */
  readonly runStore?: KestrelRunStore;
  /**
   * Called once per chat when its first run names its Kestrel session (a chat is one session): keep it, e.g. in the
   * URL, and give it back as the chat id (`useChat({ id: sessionId })`) or to `loadChatHistory`.
   */
  readonly onSessionId?: (context: { readonly chatId: string; readonly sessionId: string }) => void;
}

type SendOptions<M extends UIMessage> = Parameters<ChatTransport<M>['sendMessages']>[0];

/** How long a chat's next run waits for a run stop() cancelled to end before it is sent anyway. */
const CANCEL_SETTLE_MS = 10_000;

/** Waits for `pending` (when there is one), until `deadline` (a `performance.now()` time), or until `signal` aborts. */
function settledOrGiveUp(
  pending: Promise<unknown> | undefined,
  signal: AbortSignal | undefined,
  deadline: number,
): Promise<void> {
  if (pending === undefined || signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
    signal?.addEventListener('abort', done, { once: true });
    void pending.then(done);
  });
}

/** Keeps `pending` under `key`, after what was there already, until both are over; then forgets it. */
function chainPending(map: Map<string, Promise<unknown>>, key: string, pending: Promise<unknown>): void {
  const over = Promise.all([map.get(key), pending]).then(() => undefined);
  map.set(key, over);
  void over.then(() => {
    if (map.get(key) === over) map.delete(key);
  });
}

/**
 * A `ChatTransport` that drives Kestrel runs from `useChat`: each user message starts a run (or answers the
 * interaction the chat waits on), and the run streams back as one assistant message.
 *
 * - The message finishes only on `run.completed`, whatever the output status; WAITING finishes it with a
 *   `data-kestrel-interaction` part, and the next user message answers it.
 * - A dropped connection (after the client's reconnects), a truncated stream, a protocol or HTTP error or a
 *   timeout errors the stream with the core's `RunClientError`: `useChat` goes to `error`, never to a finished
 *   message. The message keeps a `data-kestrel-error` part saying what happened.
 *
 * @example
 * const transport = new KestrelChatTransport({ client: createRunClient({ baseUrl: '/api/kestrel' }) });
 * const chat = useChat<KestrelUIMessage>({ transport, dataPartSchemas: kestrelDataPartSchemas });
 */
export class KestrelChatTransport<P = unknown, M extends UIMessage = KestrelUIMessage<P>> implements ChatTransport<M> {
  /** Reconnecting replays the open attempt from its first event: `useChat` rebuilds the message from scratch. */
  readonly resumeStreamIsReplay = true;
  readonly #options: KestrelChatTransportOptions<P>;
  readonly #store: KestrelRunStore;
  /** Handles settled WAITING in this page, by run id: answering them needs no extra request. */
  readonly #waiting = new Map<string, RunHandle<P>>();
  /** The Kestrel session of each chat of this page, learned from its first run. */
  readonly #sessions = new Map<string, string>();
  /**
   * Per chat, a run stop() cancelled that may still be live on the server: the chat's next run waits for it to end
   * (Kestrel refuses a second live run in a session with `409 run_in_progress`), at most `CANCEL_SETTLE_MS`.
   */
  readonly #cancelling = new Map<string, Promise<unknown>>();
  /**
   * The same runs by the Kestrel session they run in, when it is known: another chat of this page sending to that
   * session (an app that maps several chats to one session) waits for them too.
   */
  readonly #cancellingIn = new Map<string, Promise<unknown>>();
  /** The session a run was started in, for a run stopped before its `run.started` named it. */
  readonly #startedIn = new WeakMap<RunHandle<P>, string>();

  constructor(options: KestrelChatTransportOptions<P>) {
    this.#options = options;
    this.#store = options.runStore ?? createMemoryRunStore();
  }

  async sendMessages(options: SendOptions<M>): Promise<ReadableStream<UIMessageChunk>> {
    const { chatId, messages, abortSignal } = options;
    const last = messages.at(-1);
    if (last === undefined || last.role !== 'user') {
      throw new KestrelChatError('no-user-message', 'KestrelChatTransport needs the chat to end with a user message');
    }
    const waiting = pendingInteraction(messages.slice(0, -1));
    // A run Kestrel no longer has (404) cannot be answered or shown: a message that is not an explicit answer
    // (`kestrelAnswer`) then goes to a new run of the session, so the chat is never stuck behind it.
    const shown = waiting === null ? null : await this.#sendWhileWaiting(chatId, last, waiting, abortSignal);
    if (shown !== null && shown !== 'gone') return shown;
    const input = messageText(last);
    if (input.trim() === '')
      throw new KestrelChatError('no-input', 'A Kestrel run takes text input: the last user message has no text');
    // One bound for both waits below: the chat's own stopped runs, then another chat's in the same session.
    const deadline = performance.now() + CANCEL_SETTLE_MS;
    await settledOrGiveUp(this.#cancelling.get(chatId), abortSignal, deadline);
    // Read after the wait: a run stopped before its start was answered names the chat's session only now.
    const sessionId =
      this.#options.sessionId?.({ chatId, messages }) ?? lastKestrelSession(messages) ?? this.#sessions.get(chatId);
    // A run another chat stopped in the same session (the chat's own runs were waited for above).
    if (sessionId !== undefined) await settledOrGiveUp(this.#cancellingIn.get(sessionId), abortSignal, deadline);
    // Stopped while it waited: nothing was sent, and no run starts that nobody asked to follow.
    if (abortSignal?.aborted === true) throw new DOMException('Stopped before the message was sent', 'AbortError');
    const handle = this.#options.client.start<P>({
      input,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(this.#options.responseFormat === undefined ? {} : { responseFormat: this.#options.responseFormat }),
      ...(this.#options.payloadSchema === undefined ? {} : { payloadSchema: this.#options.payloadSchema }),
    });
    if (sessionId !== undefined) this.#startedIn.set(handle, sessionId);
    return this.#follow(chatId, handle, 0, abortSignal);
  }

  /**
   * A message to a chat whose last run waited: its answer, or the run's newer attempt shown instead; `null` when the
   * run moved on to an outcome and `gone` when Kestrel no longer has the run (a new run then takes the message).
   */
  async #sendWhileWaiting(
    chatId: string,
    last: UIMessage,
    waiting: KestrelInteractionData,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk> | 'gone' | null> {
    const answer = this.#answerIn(last, waiting);
    if (answer !== undefined) {
      const sent = await this.#sendAnswer(chatId, waiting, answer, signal);
      // A text interaction's answer is the message's text, which a new run can take; an explicit answer cannot.
      if (sent === 'gone' && answerFromMetadata(last) !== undefined) throw runGone(waiting);
      return sent;
    }
    // A plain message is refused only while the run really waits: the chat's copy of the wait may be stale.
    const now = await this.#readWait(waiting, signal);
    switch (now.kind) {
      case 'same':
        throw answerRequired(waiting);
      case 'live':
        // An attempt begun elsewhere streams: a new run would be refused (409), so show that attempt instead.
        return this.#followNewest(chatId, waiting, signal, { kestrelMessageNotSent: { reason: 'run-in-progress' } });
      case 'moved-on':
        // A new question the chat never showed: show it rather than leave it unanswered behind a new run.
        return now.result.output.status === 'WAITING'
          ? this.#followNewest(chatId, waiting, signal, { kestrelMessageNotSent: { reason: 'run-waiting' } })
          : null;
      default:
        return now satisfies never;
    }
  }

  async reconnectToStream(
    options: { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions,
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    const record = await this.#store.get(options.chatId);
    if (record === null) return null;
    const handle = this.#options.client.resume<P>({
      runId: record.runId,
      ...(record.fromSeq > 0 ? { lastSeq: record.fromSeq } : {}),
      ...(this.#options.payloadSchema === undefined ? {} : { payloadSchema: this.#options.payloadSchema }),
    });
    return this.#follow(options.chatId, handle, record.fromSeq, options.abortSignal);
  }

  /**
   * The chat's Kestrel session as `useChat` messages, from the session listing (see `loadChatHistory`): the
   * session this transport learned for `chatId`, else `chatId` itself (a chat whose id is its session id). When its
   * newest run is still live, `resumeStream()` then re-attaches to it.
   *
   * @example
   * const history = await transport.loadChatHistory(sessionId);
   * const chat = useChat<KestrelUIMessage>({ id: sessionId, messages: history.messages, transport, resume: history.liveRunId !== null });
   */
  async loadChatHistory(
    chatId: string,
    options: { readonly maxRuns?: number; readonly signal?: AbortSignal } = {},
  ): Promise<KestrelChatHistory<P>> {
    const sessionId = this.#sessions.get(chatId) ?? chatId;
    const history = await loadChatHistory<P>({
      client: this.#options.client,
      sessionId,
      ...options,
      ...(this.#options.payloadSchema === undefined ? {} : { payloadSchema: this.#options.payloadSchema }),
    });
    if (history.status !== 'not-found' && history.status !== 'unavailable') this.#sessions.set(chatId, sessionId);
    if (history.liveRunId !== null) await this.#store.set(chatId, { runId: history.liveRunId, fromSeq: 0 });
    return history;
  }

  /**
   * The answer a user message gives: its `kestrelAnswer` metadata, or its text for a `text` interaction; `undefined`
   * for a plain message.
   */
  #answerIn(message: UIMessage, waiting: KestrelInteractionData): InteractionAnswer | undefined {
    let answer: InteractionAnswer | undefined;
    try {
      answer = answerFromMetadata(message);
    } catch (cause) {
      throw new KestrelChatError('invalid-answer', 'metadata.kestrelAnswer is not an interaction answer', { cause });
    }
    const { interaction } = waiting;
    if (answer === undefined && interaction.kind === 'text' && messageText(message).trim() !== '') {
      answer = { kind: 'text', text: messageText(message) };
    }
    if (answer === undefined) return undefined;
    const check = validateInteractionAnswer(interaction, answer);
    if (!check.valid) throw new InteractionAnswerError(check.issues);
    return check.answer;
  }

  /** Where the run stands against the chat's copy of its wait, asked of the server (`/result`). */
  async #readWait(waiting: KestrelInteractionData, signal: AbortSignal | undefined): Promise<ServerWait> {
    const settled = await this.#options.client.fetchResult(waiting.runId, signal === undefined ? {} : { signal });
    const now: ServerWait =
      settled === null
        ? { kind: 'live' }
        : waitsOn(settled, waiting)
          ? { kind: 'same' }
          : { kind: 'moved-on', result: settled };
    if (now.kind !== 'same') this.#waiting.delete(waiting.runId);
    return now;
  }

  /** Answers the wait, or shows the run's newest attempt (marked not applied) when it no longer waits on it. */
  async #sendAnswer(
    chatId: string,
    waiting: KestrelInteractionData,
    answer: InteractionAnswer,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk> | 'gone'> {
    const notApplied: KestrelMessageMetadata = { kestrelAnswerNotApplied: { interactionId: waiting.interaction.id } };
    let handle = this.#waiting.get(waiting.runId);
    if (handle === undefined) {
      // After a reload the WAITING handle is gone. Check first that the run still waits on this very interaction
      // (it may have been answered since), then let the replay rebuild the handle.
      if ((await this.#readWait(waiting, signal)).kind !== 'same')
        return this.#followNewest(chatId, waiting, signal, notApplied);
      const replay = this.#resume(waiting.runId);
      // Answered in between: the replay is already the newer attempt, shown as it streams (never awaited to its end).
      if ((await firstSign(replay, waiting, signal)) === 'newer')
        return this.#follow(chatId, replay, 0, signal, notApplied);
      handle = replay;
    }
    try {
      const next = await handle.respond(answer);
      this.#waiting.delete(waiting.runId);
      return this.#follow(chatId, next, waiting.seq, signal);
    } catch (error) {
      // The core's one definition of a refusal that means the wait is over (the run controllers read it too).
      if (!isWaitOver(error)) throw error;
      this.#waiting.delete(waiting.runId);
    }
    // Refused. A server that forgot the interaction may still wait on it: replaying would show the same question again.
    if ((await this.#readWait(waiting, signal)).kind === 'same') throw answerRefused(waiting);
    return this.#followNewest(chatId, waiting, signal, notApplied);
  }

  /**
   * Shows the run's newest attempt, replayed from its start, instead of what the user sent; `gone`, before anything
   * streams, when Kestrel no longer has the run (`/result` answered 404 or 409, then the replay 404 or 410).
   */
  async #followNewest(
    chatId: string,
    waiting: KestrelInteractionData,
    signal: AbortSignal | undefined,
    metadata: KestrelMessageMetadata,
  ): Promise<ReadableStream<UIMessageChunk> | 'gone'> {
    const replay = this.#resume(waiting.runId);
    try {
      await firstSign(replay, waiting, signal);
    } catch (error) {
      if (isRunGone(error)) return 'gone';
      // Any other failure of the replay is the message's error, as the stream reports it; stop() rejects.
      if (!isRunClientError(error)) throw error;
    }
    return this.#follow(chatId, replay, 0, signal, metadata);
  }

  /** Re-attaches to a run's newest attempt, replayed from its start. */
  #resume(runId: string): RunHandle<P> {
    return this.#options.client.resume<P>({
      runId,
      ...(this.#options.payloadSchema === undefined ? {} : { payloadSchema: this.#options.payloadSchema }),
    });
  }

  /** Streams one attempt as chunks until it settles, fails or is let go of. */
  #follow(
    chatId: string,
    handle: RunHandle<P>,
    fromSeq: number,
    signal: AbortSignal | undefined,
    metadata?: KestrelMessageMetadata,
  ): ReadableStream<UIMessageChunk> {
    const writer = createRunChunkWriter({ fromSeq });
    const store = this.#store;
    const abandon = () => {
      if (this.#options.onAbort !== 'cancel') return handle.detach();
      // The handle reads on until the CANCELLED outcome (or an error): what the chat's next message waits for,
      // with any run stopped before it still live (a cancel that failed on the network waits for the run itself).
      const stopped = Promise.allSettled([handle.cancel(), handle.result]);
      chainPending(this.#cancelling, chatId, stopped);
      const known = handle.getState().sessionId ?? this.#startedIn.get(handle);
      if (known !== undefined) return chainPending(this.#cancellingIn, known, stopped);
      // A new session, or a replay, not named yet (its run.started is still to come): recorded once it is.
      const stopWatching = handle.subscribe(() => {
        const named = handle.getState().sessionId;
        if (named === null) return;
        stopWatching();
        chainPending(this.#cancellingIn, named, stopped);
      });
      void stopped.then(stopWatching);
    };
    // Each draft chunk restates the whole draft: a reader that falls behind needs only the newest.
    const queue = createChunkQueue<UIMessageChunk>({
      onCancel: abandon,
      replaceKey: (chunk) => (chunk.type === 'data-kestrel-draft' ? chunk.type : undefined),
    });
    let recorded = false;
    let unsubscribe = () => {};
    const update = () => {
      const state = handle.getState();
      if (state.sessionId !== null && !this.#sessions.has(chatId)) {
        const sessionId = state.sessionId;
        this.#sessions.set(chatId, sessionId);
        try {
          this.#options.onSessionId?.({ chatId, sessionId });
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      if (!recorded && state.runId !== null) {
        recorded = true;
        void Promise.resolve(store.set(chatId, { runId: state.runId, fromSeq })).catch(() => undefined);
      }
      const { chunks, end } = writer.next(state);
      const start = chunks.findIndex((chunk) => chunk.type === 'start');
      if (metadata !== undefined && start !== -1)
        chunks.splice(start + 1, 0, { type: 'message-metadata', messageMetadata: metadata });
      queue.push(...chunks);
      switch (end.kind) {
        case 'open':
          return;
        case 'finished':
          if (state.status === 'WAITING' && state.runId !== null) this.#waiting.set(state.runId, handle);
          void Promise.resolve(store.delete(chatId)).catch(() => undefined);
          queue.close();
          break;
        case 'failed':
          // The record stays: `resumeStream()` can re-attach to the run once the network is back.
          queue.fail(new RunClientError(end.error, { runId: state.runId }));
          break;
        case 'detached':
          queue.close();
          break;
        default:
          end satisfies never;
      }
      unsubscribe();
    };
    const onAbort = () => {
      abandon();
      queue.close();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const unsubscribeState = handle.subscribe(update);
    unsubscribe = () => {
      unsubscribeState();
      signal?.removeEventListener('abort', onAbort);
    };
    update();
    return queue.stream;
  }
}
