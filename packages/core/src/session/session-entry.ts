import {
  createRunController,
  type RunController,
  type RunControllerOptions,
} from '../controller/create-run-controller.js';
import type { RunBinding } from '../controller/run-actions.js';
import { getRetryMode } from '../controller/retry-mode.js';
import { isWaitOver, waitOverReason } from '../controller/wait-over.js';
import type { InteractionAnswer, ResponseFormat } from '../protocol/types.js';
import type { RunError, RunState } from '../run/run-state.js';
import { entryError, entryStatus, type Delivery } from './entry-status.js';
import { withAnswer } from './known-run.js';
import type { SessionAnswer, SessionAnswerNotTaken, SessionEntry } from './session-types.js';

/** One message of the session and what the controller knows of it; `snapshot()` is what the app reads. */
export interface EntryRecord<P> {
  readonly key: string;
  readonly input: string;
  readonly createdAt: string;
  readonly origin: 'history' | 'local';
  readonly responseFormat: ResponseFormat | undefined;
  readonly controller: RunController<P>;
  delivery: Delivery;
  /** Why the message could not be sent without a run to say so (a 409 that could not be resolved). */
  refused: RunError | null;
  /** How many times the server answered `run_in_progress` to this message. */
  conflicts: number;
  /** The session id this message was last sent to (null: `'new'`), to tell whose "not found" a refusal is. */
  sentTo: string | null;
  /** The key of a later entry with the same input (its retry), set by `markRetried`; null when there is none. */
  retriedAs: string | null;
  answers: readonly SessionAnswer[];
  /** The last answer given here that the server did not take because the wait was over (`isWaitOver`). */
  notTaken: SessionAnswerNotTaken | null;
  /** The run id: the run's own once known, else the one the listing gave. */
  readonly runId: string | null;
  snapshot(): SessionEntry<P>;
}

export interface EntryInit<P> {
  readonly key: string;
  readonly input: string;
  readonly createdAt: string;
  readonly origin: 'history' | 'local';
  readonly runId?: string;
  readonly answers?: readonly SessionAnswer[];
  readonly responseFormat?: ResponseFormat | undefined;
  readonly delivery: Delivery;
  readonly controllerOptions: RunControllerOptions<P>;
  /** What the entry's binding does for `retry()`: the session's retry, which knows the policy. */
  readonly retry: () => void;
  /** Called after an answer was recorded on the entry. */
  readonly changed: () => void;
  /** Called when the server refused an answer because the run no longer waits (`isWaitOver`). */
  readonly outdated: () => void;
}

/** The answer's place in the run: the interaction it answers, the attempt that asked, and what it asked. */
function answerRecord(state: RunState<unknown>, answer: InteractionAnswer): SessionAnswer | null {
  const output = state.output;
  if (output?.status !== 'WAITING') return null;
  return {
    interactionId: output.interaction.id,
    attempt: state.attempt ?? state.result?.attempt ?? 1,
    answer,
    question: { text: output.assistantText ?? null, interaction: output.interaction },
  };
}

/**
 * Makes an entry: its run controller, and the binding the app gets, which records each answer on the entry (so the
 * thread shows the person's reply) and retries through the session.
 */
export function createEntryRecord<P>(init: EntryInit<P>): EntryRecord<P> {
  const controller = createRunController<P>(init.controllerOptions);
  let cached: {
    entry: SessionEntry<P>;
    state: RunState<P>;
    delivery: Delivery;
    answers: readonly SessionAnswer[];
    notTaken: SessionAnswerNotTaken | null;
    refused: RunError | null;
    retriedAs: string | null;
  } | null = null;

  const binding: RunBinding<P> = {
    getState: controller.getState,
    subscribe: controller.subscribe,
    start: controller.start,
    resume: controller.resume,
    cancel: controller.cancel,
    detach: controller.detach,
    // The session keeps every entry's input, so a retryable FAILED run can start again even when read from history,
    // once: a later entry with its input is its retry.
    getRetryMode: () => {
      const state = controller.getState();
      const mode = getRetryMode(state);
      if (mode === 'resume') return state.runId === null ? null : mode;
      return mode === 'restart' && record.retriedAs !== null ? null : mode;
    },
    reset: controller.reset,
    retry: init.retry,
    async respond(answer) {
      const asked = answerRecord(controller.getState(), answer);
      try {
        await controller.respond(answer);
      } catch (error) {
        // Answered elsewhere: the run is read again (the controller does), and the session catches up with it. The
        // entry keeps the answer that was not taken, so the thread can say it was not sent instead of losing it.
        if (isWaitOver(error)) {
          record.notTaken = asked === null ? null : { ...asked, reason: waitOverReason(error) };
          init.changed();
          init.outdated();
        }
        throw error;
      }
      if (asked !== null || record.notTaken !== null) {
        if (asked !== null) record.answers = withAnswer(record.answers, asked);
        record.notTaken = null;
        init.changed();
      }
    },
  };
  // A retry changes what `getRetryMode` says while the run's state stays the same, so a retried entry gets another
  // binding (another `getRetryMode` function): parts that select the retry mode by state read it again.
  const retriedBinding: RunBinding<P> = { ...binding, getRetryMode: () => binding.getRetryMode() };

  const record: EntryRecord<P> = {
    key: init.key,
    input: init.input,
    createdAt: init.createdAt,
    origin: init.origin,
    responseFormat: init.responseFormat,
    controller,
    delivery: init.delivery,
    refused: null,
    conflicts: 0,
    sentTo: null,
    retriedAs: null,
    answers: init.answers ?? [],
    notTaken: null,
    get runId() {
      return controller.getState().runId ?? init.runId ?? null;
    },
    snapshot() {
      const state = controller.getState();
      if (
        cached !== null &&
        cached.state === state &&
        cached.delivery === record.delivery &&
        cached.answers === record.answers &&
        cached.notTaken === record.notTaken &&
        cached.refused === record.refused &&
        cached.retriedAs === record.retriedAs
      )
        return cached.entry;
      const status = entryStatus(record.delivery, state);
      const entry: SessionEntry<P> = {
        key: record.key,
        runId: record.delivery === 'sent' ? record.runId : null,
        input: record.input,
        createdAt: record.createdAt,
        origin: record.origin,
        status,
        answers: record.answers,
        answerNotTaken: record.notTaken,
        run: record.retriedAs === null ? binding : retriedBinding,
        error: entryError(status, state, record.refused),
      };
      cached = {
        entry,
        state,
        delivery: record.delivery,
        answers: record.answers,
        notTaken: record.notTaken,
        refused: record.refused,
        retriedAs: record.retriedAs,
      };
      return entry;
    },
  };
  return record;
}

/**
 * Marks each entry followed later in the thread by one with the same input (`retriedAs`: the nearest such entry).
 * A retry of a FAILED run is that later entry, so this holds for a retry made here and for one read from history.
 */
export function markRetried(records: readonly Pick<EntryRecord<unknown>, 'key' | 'input' | 'retriedAs'>[]): void {
  const later = new Map<string, string>();
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const record = records[index] as (typeof records)[number];
    record.retriedAs = later.get(record.input) ?? null;
    later.set(record.input, record.key);
  }
}
