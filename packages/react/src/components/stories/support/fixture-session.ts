import type {
  RunBinding,
  RunState,
  SessionAnswer,
  SessionAnswerNotTaken,
  SessionConcurrency,
  SessionEntry,
  SessionEntryStatus,
  SessionHistoryStatus,
  SessionSendResult,
  SessionState,
} from '@kestrel/core';
import { createScenarioRun, getScenario, invoiceSchema, type Invoice, type ScenarioRunOptions } from '@kestrel/testing';
import type { SessionBinding } from '../../../types.js';

/** One entry of a fixture session: what the person typed and the scenario its run plays (frozen where given). */
export interface FixtureEntry {
  readonly input: string;
  readonly scenario: string;
  readonly freeze?: Pick<ScenarioRunOptions<Invoice>, 'upTo' | 'until' | 'then'>;
  readonly answers?: readonly SessionAnswer[];
  /** An answer given here that the server did not take: the question was answered elsewhere first. */
  readonly answerNotTaken?: SessionAnswerNotTaken;
  /** `queued`, `sending` or `failed-to-send` keep the run idle; otherwise the status follows the run. */
  readonly status?: 'queued' | 'sending' | 'failed-to-send';
}

/** Options of {@link createFixtureSession}. */
export interface FixtureSessionOptions {
  readonly entries?: readonly FixtureEntry[];
  readonly history?: SessionHistoryStatus;
  readonly sessionId?: string | null;
  readonly concurrency?: SessionConcurrency;
  /** The scenario a message sent from the composer plays. Default `completed-text`. */
  readonly sendScenario?: string;
  /** Older entries `loadOlder` adds, one page per call (oldest page last). */
  readonly olderPages?: readonly (readonly FixtureEntry[])[];
  /** Every action, for tests and the Storybook actions panel. */
  readonly onAction?: (name: string, ...args: unknown[]) => void;
}

/** A fixture session with a way to see what it did (tests) and change its history status (stories). */
export interface FixtureSession extends SessionBinding<Invoice> {
  readonly setHistory: (history: SessionHistoryStatus) => void;
}

interface Slot {
  readonly key: string;
  readonly input: string;
  readonly run: RunBinding<Invoice>;
  /** The run as shown once a later entry holds its input (its retry): `getRetryMode()` is null, as in a session. */
  readonly retriedRun: RunBinding<Invoice>;
  readonly answers: readonly SessionAnswer[];
  readonly answerNotTaken: SessionAnswerNotTaken | null;
  kept: 'queued' | 'sending' | 'failed-to-send' | null;
  readonly origin: 'history' | 'local';
}

function statusOf(state: RunState<Invoice>): SessionEntryStatus {
  if (state.phase === 'settled') return state.status === 'WAITING' ? 'waiting' : 'settled';
  if (state.phase === 'idle') return 'sending';
  // A run that exists but was lost short of an outcome (a stream cut short) is interrupted, as in a session.
  if (state.phase === 'error' || state.phase === 'detached')
    return state.runId === null ? 'failed-to-send' : 'interrupted';
  return 'live';
}

/** The keys of the slots followed later by one with the same input: their retry (as `markRetried` in core). */
function retriedKeys(slots: readonly Slot[]): Set<string> {
  const retried = new Set<string>();
  const later = new Set<string>();
  for (const slot of [...slots].reverse()) {
    if (later.has(slot.input)) retried.add(slot.key);
    later.add(slot.input);
  }
  return retried;
}

/**
 * A session in memory over scenario runs, shaped like a session controller: no network and no timers, for
 * stories and component tests of the session parts. `send` follows the policy; a queued message is sent when the
 * active run settles other than WAITING.
 */
export function createFixtureSession(options: FixtureSessionOptions = {}): FixtureSession {
  const report = options.onAction ?? (() => undefined);
  const concurrency = options.concurrency ?? 'queue';
  const listeners = new Set<() => void>();
  const olderPages = [...(options.olderPages ?? [])];
  let history: SessionHistoryStatus = options.history ?? 'complete';
  let counter = 0;
  let slots: Slot[] = [];
  let state: SessionState<Invoice>;
  const cache = new Map<string, SessionEntry<Invoice>>();

  const makeSlot = (entry: FixtureEntry, origin: Slot['origin']): Slot => {
    const scenario = getScenario(entry.scenario);
    counter += 1;
    const run = createScenarioRun<Invoice>(scenario, {
      ...(entry.status === undefined ? entry.freeze : { upTo: 0 }),
      payloadSchema: scenario.usesInvoiceSchema === true ? invoiceSchema : undefined,
    });
    const slot: Slot = {
      key: `entry-${counter}`,
      input: entry.input,
      run,
      retriedRun: { ...run, getRetryMode: () => null },
      answers: entry.answers ?? [],
      answerNotTaken: entry.answerNotTaken ?? null,
      kept: entry.status ?? null,
      origin,
    };
    run.subscribe(() => rebuild());
    return slot;
  };

  const entryOf = (slot: Slot, retried: boolean): SessionEntry<Invoice> => {
    const runState = slot.run.getState();
    const status = slot.kept ?? statusOf(runState);
    const run = retried ? slot.retriedRun : slot.run;
    const previous = cache.get(slot.key);
    if (previous?.status === status && previous.answers === slot.answers && previous.run === run) return previous;
    const entry: SessionEntry<Invoice> = {
      key: slot.key,
      runId: slot.kept === null ? runState.runId : null,
      input: slot.input,
      createdAt: '2026-01-01T00:00:00.000Z',
      origin: slot.origin,
      status,
      answers: slot.answers,
      answerNotTaken: slot.answerNotTaken,
      run,
      error:
        status === 'failed-to-send'
          ? { kind: 'http', message: 'The server refused the message (HTTP 500)', status: 500, code: null }
          : null,
    };
    cache.set(slot.key, entry);
    return entry;
  };

  function rebuild(notify = true) {
    const retried = retriedKeys(slots);
    const entries = slots.map((slot) => entryOf(slot, retried.has(slot.key)));
    const active = entries.find(
      (entry) => entry.status === 'live' || entry.status === 'waiting' || entry.status === 'sending',
    );
    const queued = slots.find((slot) => slot.kept === 'queued');
    if (active === undefined && queued !== undefined) {
      queued.kept = null;
      queued.run.start(queued.input);
      return;
    }
    state = {
      sessionId: options.sessionId === undefined ? 'session-fixture' : options.sessionId,
      entries,
      history,
      historyError: history === 'error' ? { kind: 'transport', message: 'The connection failed' } : null,
      activeKey: active?.key ?? null,
    };
    if (notify) listeners.forEach((listener) => listener());
  }

  slots = (options.entries ?? []).map((entry) => makeSlot(entry, 'history'));
  rebuild(false);

  const send = (input: string): SessionSendResult => {
    report('send', input);
    if (input.trim() === '') return { type: 'rejected', reason: 'empty-input' };
    const busy = state.activeKey !== null;
    if (busy && concurrency === 'reject') return { type: 'rejected', reason: 'run-in-progress' };
    const slot = makeSlot({ input, scenario: options.sendScenario ?? 'completed-text', status: 'sending' }, 'local');
    slots = [...slots, slot];
    if (busy) {
      slot.kept = 'queued';
      // `cancel-previous`: the run in progress is asked to stop; the message goes once it has settled.
      if (concurrency === 'cancel-previous') {
        report('cancel');
        void slots.find((other) => other.key === state.activeKey)?.run.cancel();
      }
      rebuild();
      return { type: 'queued', key: slot.key };
    }
    slot.kept = null;
    slot.run.start(input);
    rebuild();
    return { type: 'sent', key: slot.key };
  };

  return {
    concurrency,
    getState: () => state,
    getServerState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send,
    loadOlder: async () => {
      report('loadOlder');
      const page = olderPages.shift();
      if (page === undefined) return;
      slots = [...page.map((entry) => makeSlot(entry, 'history')), ...slots];
      history = olderPages.length > 0 ? 'more' : 'complete';
      rebuild();
    },
    refresh: async () => {
      report('refresh');
      return { type: 'refreshed', added: [], updated: [], gap: false };
    },
    retry: (key) => {
      report('retry', key);
      // A fixture only reports the click: it sends nothing again.
      return { type: 'rejected', reason: 'not-retryable' };
    },
    withdraw: (key) => {
      report('withdraw', key);
      slots = slots.filter((slot) => !(slot.key === key && slot.kept === 'queued'));
      rebuild();
    },
    cancel: async () => {
      report('cancel');
    },
    setHistory: (next) => {
      history = next;
      rebuild();
    },
  };
}
