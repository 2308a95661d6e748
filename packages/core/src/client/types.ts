import type { InteractionAnswer, ResponseFormat, RunCompletedEvent } from '../protocol/types.js';
import type { PayloadSchema } from '../run/payload.js';
import type { RetainEvents, RunState } from '../run/run-state.js';
import type { KestrelHeaders } from '../protocol/kestrel-headers.js';
import type { RunEffect } from '../run/run-effect.js';
import type { TransportListener } from './transport-event.js';

/*
 * The contract of the run client. Hooks, components, the AI SDK bridge and the server helpers are written
 * against these types; `create-run-client.ts` implements them.
 */

/**
 * Anything that holds a run state and says when it changed: a handle, a controller, a fixture. Both methods
 * work unbound (`const { subscribe } = source`), as `useSyncExternalStore` calls them.
 */
export interface RunSource<P = unknown> {
  getState(): RunState<P>;
  /** Calls `listener` after the state changed; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** Schedules motion notifications; a browser uses `requestAnimationFrame`, tests and servers inject their own. */
export interface FrameScheduler {
  request(callback: () => void): unknown;
  cancel(handle: unknown): void;
  /**
   * The clock the motion schedule reads (frame times, what subscribers took), in milliseconds. Defaults to
   * `performance.now()`; a test's scheduler brings a clock it advances by hand.
   */
  now?(): number;
}

/**
 * When motion (deltas, progress, logs, tools) reaches subscribers; changes a person must see at once (phase,
 * outcome, errors, WAITING) never wait for it. Every field is optional; see docs/performance.md for the figures.
 *
 * @example
 * createRunClient({ baseUrl: '/api/kestrel', motion: { intervalMs: 0 } }); // notify on every frame
 */
export interface MotionScheduleOptions {
  /**
   * The time between motion notifications while motion keeps arriving, taken at the nearest animation frame
   * (50 ms is every 3rd frame at 60 Hz). Motion after a quiet spell goes out on the next frame. Default 50, the
   * figure of `useChat`'s `experimental_throttle: 50`; 0 notifies on every frame.
   */
  readonly intervalMs?: number;
  /**
   * The 95th-percentile wait, in ms, from a delta's arrival to the end of the render that shows it, that the gap is
   * shortened to keep (from what the subscribers took): while renders are cheap the interval holds; as they grow,
   * notifications come every 2nd frame, then every frame. Default 50; `Infinity` keeps the interval whatever it costs.
   */
  readonly latencyBudgetMs?: number;
  /**
   * Back-off: the gap grows to this many times what the subscribers took last (their render included), so they
   * keep at most about 1/costMultiple of the main thread; a render too slow for both this and the latency budget
   * gets this. Default 3; 0 turns the back-off off.
   */
  readonly costMultiple?: number;
  /** The longest gap the back-off may reach: how long motion can wait, at most. Default 100 (or `intervalMs` when larger). */
  readonly maxIntervalMs?: number;
}

/** How a dropped or silent connection is resumed. Every field is optional; the defaults are below. */
export interface ReconnectPolicy {
  /** How many times to reconnect after a drop before giving up with a `transport` error. Default 5. */
  readonly attempts?: number;
  /** First backoff delay. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** Backoff ceiling. Default 10 s. */
  readonly maxDelayMs?: number;
  /** 0..1, the share of each delay that is randomized. Default 0.5. */
  readonly jitter?: number;
}

/** Headers for every request, or a function read before each one (so a refreshed auth token is used). */
export type HeadersInput = KestrelHeaders | (() => KestrelHeaders | Promise<KestrelHeaders>);

/**
 * Options of {@link RunClient}; only `baseUrl` is required.
 *
 * @example
 * createRunClient({ baseUrl: '/api/kestrel', headers: async () => ({ authorization: `Bearer ${await token()}` }) });
 */
export interface RunClientOptions {
  /** Where Kestrel (or your backend in front of it) answers `/v1/...`. */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  /** Extra headers on every request, or a function returning them (for auth tokens). */
  readonly headers?: HeadersInput;
  readonly reconnect?: ReconnectPolicy;
  /** Silence (no byte, no keep-alive) after which the connection counts as lost and is resumed. Default 45 s. */
  readonly heartbeatTimeoutMs?: number;
  /**
   * Time allowed for response headers to arrive, and for every silence while a JSON body (`/result`, the JSON
   * route) is read: any byte starts it again. Default 30 s; a `timeout` error when it runs out.
   */
  readonly requestTimeoutMs?: number;
  /**
   * The longest SSE line or message, and the largest JSON body, the client accepts; more ends the connection with a
   * `protocol` error naming the size and the limit. Default 16 MiB (an event may hold a 10 MB `assistantText`).
   */
  readonly maxMessageBytes?: number;
  /** The frames motion notifications are aligned to; defaults to `requestAnimationFrame` or a 16 ms timer. */
  readonly scheduler?: FrameScheduler;
  /** How often motion notifications go out, and how they back off when rendering them grows costly. */
  readonly motion?: MotionScheduleOptions;
  /**
   * Which events `state.events` keeps for every run of this client, unless a run says otherwise: `'all'` (the
   * default: inspectors and recordings see every event) or `'structural'` (text and reasoning deltas folded into
   * `draftText` and `reasoning`, so a long run's memory is about its text). See {@link RetainEvents}.
   */
  readonly retainEvents?: RetainEvents;
}

/** What `client.start` sends (`POST /v1/sessions/{sessionId}/runs`) and how the payload is checked. */
export interface StartRunOptions<P = unknown> {
  /** Defaults to `new`, which asks Kestrel for a new session. */
  readonly sessionId?: string;
  readonly input: string;
  readonly responseFormat?: ResponseFormat;
  /** The app's schema for `finalizedPayload`; its output type becomes the payload's type. */
  readonly payloadSchema?: PayloadSchema<P>;
  readonly signal?: AbortSignal;
  /** Which events this run's `state.events` keeps; defaults to the client's `retainEvents` (`'all'`). */
  readonly retainEvents?: RetainEvents;
}

/** Which run `client.resume` re-attaches to, e.g. the run id kept in the URL across a reload. */
export interface ResumeRunOptions<P = unknown> {
  readonly runId: string;
  /** The last seq already shown; omit to replay the latest attempt from its `run.started` (after a page reload). */
  readonly lastSeq?: number;
  readonly payloadSchema?: PayloadSchema<P>;
  /**
   * The run's terminal event when it is already known (a session listing's `result`): the handle starts settled
   * from it and sends nothing. A WAITING one can be answered; `lastSeq` is then ignored.
   */
  readonly result?: RunCompletedEvent;
  /** Which events this run's `state.events` keeps; defaults to the client's `retainEvents` (`'all'`). */
  readonly retainEvents?: RetainEvents;
}

/** Which page of a session's runs `listSessionRuns` asks for (`GET /v1/sessions/{sessionId}/runs`). */
export interface ListRunsOptions {
  /** An existing session (not `new`). */
  readonly sessionId: string;
  /** The `nextCursor` of the previous page: runs older than it. Omit for the newest page. */
  readonly before?: string | undefined;
  /** Runs per page, an integer from 1 to 100. The server's default (20) when omitted. */
  readonly limit?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** What `client.run` sends on the JSON route (`Accept: application/json`): one request, one terminal event. */
export interface JsonRunOptions {
  readonly sessionId?: string;
  readonly input: string;
  readonly responseFormat?: ResponseFormat;
  readonly signal?: AbortSignal;
}

/** One attempt of a run, live. */
export interface RunHandle<P = unknown> extends RunSource<P> {
  /**
   * The terminal event, for every output status (WAITING included: a wait settles the attempt). Rejects with a
   * {@link RunClientError} on transport loss, truncation, protocol and HTTP errors and timeouts, and with kind
   * `detached` after {@link RunHandle.detach}. Never raises an unhandled rejection when nobody awaits it.
   */
  readonly result: Promise<RunCompletedEvent>;
  /** Asks the server to cancel and keeps listening: the run then settles CANCELLED. */
  cancel(): Promise<void>;
  /**
   * Stops listening without cancelling. Phase `detached`; the run goes on on the server. An unsettled `result`
   * then rejects with a `RunClientError` of kind `detached` (no outcome is claimed, and no awaiter hangs).
   */
  detach(): void;
  /** Answers a WAITING interaction once; resolves with the handle of the new attempt. */
  respond(answer: InteractionAnswer): Promise<RunHandle<P>>;
  /**
   * Calls `listener` with what happens to this attempt, as data (`settled`, `failed`, `detached`,
   * `run-identified`: see {@link RunEffect}), synchronously, once the new state is current and before `subscribe`
   * listeners hear of it. Only what happens after subscribing: read `getState()` for what came before. Returns the
   * unsubscribe function.
   *
   * @example
   * handle.subscribeEffects((effect) => { if (effect.type === 'failed') report(effect.error) });
   */
  subscribeEffects(listener: (effect: RunEffect) => void): () => void;
  /**
   * Calls `listener` with what the client does on the wire for this run (requests, responses, every SSE message as
   * received, drops, reconnect waits, resumes, `/result` fallbacks, answers, errors: see {@link TransportEvent}),
   * for debugging tools such as `recordRun`. It is first called at once with an `attempt` event, and it follows
   * the run: the handles `respond()` returns keep calling it, with themselves as `attempt`. The same function
   * subscribes once. Costs nothing while nobody listens. Subscribe in the tick the handle is made to hear its first
   * request. Returns the unsubscribe function (for this handle and the attempts it begins after that).
   */
  subscribeTransport(listener: TransportListener): () => void;
}

/** Talks to Kestrel (or your backend in front of it). Made by `createRunClient`. */
export interface RunClient {
  start<P = unknown>(options: StartRunOptions<P>): RunHandle<P>;
  /**
   * Re-attaches to a run by id (after a reload): replays its latest attempt from `/events`, live or settled
   * (WAITING included), so the state is what it was; `/result` only when the events cannot be had.
   */
  resume<P = unknown>(options: ResumeRunOptions<P>): RunHandle<P>;
  /** The JSON route: one request, one terminal event. */
  run(options: JsonRunOptions): Promise<RunCompletedEvent>;
  /** `GET /v1/runs/{runId}/result`: the terminal event, or `null` while the run has not settled. */
  fetchResult(runId: string, options?: { signal?: AbortSignal }): Promise<RunCompletedEvent | null>;
  readonly options: Readonly<RunClientOptions>;
}
