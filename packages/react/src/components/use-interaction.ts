'use client';
import {
  isRunClientError,
  isWaitOver,
  RunUsageError,
  waitOverReason,
  validateInteractionAnswer,
  type AnswerIssue,
  type ApprovalAnswer,
  type ChoiceAnswer,
  type FormAnswer,
  type Interaction,
  type RunActions,
  type RunSource,
  type RunState,
  type TextAnswer,
} from '@kestrel/core';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { issuesByKey, type AnswerIssueKey } from './answer-draft.js';
import { usePartRun } from './run-context.js';
import { markShown } from './dropped-parts.js';
import { useCountdown } from './use-countdown.js';

export type { AnswerIssueKey } from './answer-draft.js';

/**
 * `idle` ready to answer, `invalid` after a failed check, `submitting` while the answer is on its way, `rejected`
 * when it was refused, `unsent` when it did not get through (connection lost, no response in time), `expired`.
 */
export type PromptState = 'idle' | 'invalid' | 'submitting' | 'rejected' | 'unsent' | 'expired';

/**
 * What `answer()` came to: `sent`, `busy` (another answer is on its way: nothing sent), `not-taken` (the wait was
 * already over: answered in another tab or on another device first, or the question gone; the run was read again and
 * the controller is `null` by now), or the state it left.
 */
export type AnswerResult = 'sent' | 'busy' | 'invalid' | 'rejected' | 'unsent' | 'expired' | 'not-taken';

/**
 * Why the last answer did not go through: `rejected` when the server refused it, `unsent` when it never got there
 * (connection lost, no response in time), so nobody refused it. `message` is the error's, unworded; `error` is
 * what `respond` rejected with.
 */
export interface InteractionRejection {
  readonly kind: 'rejected' | 'unsent';
  readonly message: string;
  readonly error: unknown;
}

/** The interaction's deadline, when it has one. */
export interface InteractionExpiry {
  readonly expiresAt: string;
  /** Milliseconds left, ticking every second; `null` until mounted (the server and hydration read no clock). */
  readonly remainingMs: number | null;
  /** Past the deadline, or the client refused an answer as expired: `answer()` sends nothing more. */
  readonly expired: boolean;
}

/** The answer type of each interaction kind; an unsupported kind cannot be answered. */
export interface AnswerByKind {
  readonly approval: ApprovalAnswer;
  readonly choice: ChoiceAnswer;
  readonly text: TextAnswer;
  readonly form: FormAnswer;
  readonly unsupported: never;
}

interface ControllerOf<I extends Interaction> {
  /** The interaction's kind: switch on it to narrow `interaction` and `answer`. */
  readonly kind: I['kind'];
  readonly interaction: I;
  readonly state: PromptState;
  /**
   * The first issue per control of the last failed check or refusal, keyed as the built-in form keys them:
   * `field:<name>`, `selected`, `text`, `comment`, and `form` for the rest. Empty otherwise.
   */
  readonly issues: Readonly<Partial<Record<AnswerIssueKey, AnswerIssue>>>;
  readonly rejection: InteractionRejection | null;
  readonly expiry: InteractionExpiry | null;
  /**
   * Checks the answer with `validateInteractionAnswer` and sends it; a second call while one is on its way, or
   * once expired, sends nothing. Never rejects: the outcome is the result and the controller's state.
   */
  readonly answer: (answer: AnswerByKind[I['kind']]) => Promise<AnswerResult>;
}

/**
 * A WAITING run's question and how to answer it, one member per interaction kind: `switch (controller.kind)`
 * narrows both `interaction` and `answer`.
 */
export type InteractionController<I extends Interaction = Interaction> = I extends Interaction
  ? ControllerOf<I>
  : never;

/**
 * Renders a WAITING run's question your way. Return `undefined` to keep the kit's own UI for that interaction
 * (e.g. customise approvals only); `null` renders nothing inside the kit's frame. Return an element (your
 * component, given the controller) rather than calling hooks here.
 */
export type RenderInteraction = (interaction: InteractionController) => ReactNode | undefined;

/** The controller with `answer` taking anything (it validates): what the built-in form calls. */
export interface AnyInteractionController extends Omit<ControllerOf<Interaction>, 'answer'> {
  readonly answer: (answer: unknown) => Promise<AnswerResult>;
}

/** The run `useInteraction` reads and answers through. */
export type InteractionRun = RunSource & Pick<RunActions, 'respond'>;

/** Options of `useInteraction`. */
export interface UseInteractionOptions {
  /** The clock for the expiry countdown (tests, stories). */
  readonly now?: () => number;
}

interface Local {
  readonly id: string | undefined;
  readonly state: PromptState;
  readonly issues: AnyInteractionController['issues'];
  readonly rejection: InteractionRejection | null;
}

const fresh: Local = { id: undefined, state: 'idle', issues: {}, rejection: null };

function selectInteraction(state: RunState): Interaction | null {
  return state.phase === 'settled' && state.status === 'WAITING' ? state.output.interaction : null;
}

function rejectionOf(error: unknown): InteractionRejection & { readonly issues: readonly AnswerIssue[] } {
  const issues =
    typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues)
      ? (error as { issues: AnswerIssue[] }).issues
      : [];
  // A network failure is not the server's verdict: saying "not accepted" would claim a refusal nobody made.
  const unsent = isRunClientError(error) && (error.kind === 'transport' || error.kind === 'timeout');
  return {
    kind: unsent ? 'unsent' : 'rejected',
    message: error instanceof Error ? error.message : String(error),
    error,
    issues,
  };
}

/** The built-in prompt's hook: `answer` untyped, for the form that validates what was typed. */
export function useInteractionController(
  run: InteractionRun,
  now?: () => number,
  onWaitOver?: (reason: 'answered-elsewhere' | 'gone', runId: string) => void,
): AnyInteractionController | null {
  const interaction = useRunSelector(run, selectInteraction);
  const remainingMs = useCountdown(interaction?.expiresAt, now);
  const [stored, setStored] = useState(fresh);
  // The id of the interaction whose answer is on its way: a ref, so two clicks in one frame still send once.
  const sending = useRef<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  if (interaction === null) return null;
  const id = interaction.id;
  // A new interaction starts afresh: what was kept belongs to the one before.
  const local = stored.id === id ? stored : fresh;
  const set = (change: Partial<Local>) => {
    if (mounted.current) setStored((current) => ({ ...(current.id === id ? current : fresh), ...change, id }));
  };
  // The client's own clock may say so a moment before this countdown does: its refusal counts as expiry too.
  const expired = remainingMs === 0 || local.state === 'expired';

  // Async, yet everything up to the send runs at once: a second call in the same frame finds `sending` set.
  const answer = async (value: unknown): Promise<AnswerResult> => {
    if (sending.current === id) return 'busy';
    if (expired) return 'expired';
    const check = validateInteractionAnswer(interaction, value);
    if (!check.valid) {
      set({ state: 'invalid', issues: issuesByKey(check.issues) });
      return 'invalid';
    }
    sending.current = id;
    set({ state: 'submitting', issues: {}, rejection: null });
    try {
      await run.respond(check.answer);
      set({ state: 'idle' });
      return 'sent';
    } catch (error) {
      if (error instanceof RunUsageError && error.reason === 'expired') {
        set({ state: 'expired' });
        return 'expired';
      }
      // The run was read again and no longer waits: the question is gone, so say why the answer went nowhere.
      if (isWaitOver(error)) {
        onWaitOver?.(waitOverReason(error), error.runId);
        return 'not-taken';
      }
      const { issues, ...rejection } = rejectionOf(error);
      set({ state: rejection.kind, issues: issuesByKey(issues), rejection });
      return rejection.kind;
    } finally {
      sending.current = null;
    }
  };

  return {
    kind: interaction.kind,
    interaction,
    state: expired ? 'expired' : local.state,
    issues: local.issues,
    rejection: local.rejection,
    expiry: interaction.expiresAt === undefined ? null : { expiresAt: interaction.expiresAt, remainingMs, expired },
    answer,
  };
}

/**
 * The WAITING run's question and everything the kit's prompt does around it, for a UI of your own: `null` unless
 * the run is WAITING. `answer()` checks the answer with `validateInteractionAnswer`, sends it once (a second call
 * while one is on its way sends nothing), and keeps `state`, `issues` and `rejection` up to date: a refused
 * answer leaves your UI as it was, ready to send again; an answer that never got through is `unsent`, not
 * refused; an expired interaction sends nothing. Inside `Run.Root` it takes the root's run. One subscription.
 *
 * @example
 * const waiting = useInteraction(run);
 * if (waiting?.kind === 'approval')
 *   return <button onClick={() => void waiting.answer({ kind: 'approval', approved: true })}>Send</button>;
 */
export function useInteraction(
  run?: InteractionRun,
  options: UseInteractionOptions = {},
): InteractionController | null {
  const source = usePartRun(run, 'useInteraction');
  const controller = useInteractionController(source, options.now);
  if (process.env.NODE_ENV !== 'production') {
    // Development only, and so the same in every render of a build: the app's own markup shows the question, which
    // Run.Root's check for a dropped question must know (dropped-parts.ts).
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useLayoutEffect(() => markShown(source, 'interaction'), [source]);
  }
  // One object for every kind; its members agree with `kind`, which the union cannot see.
  return controller as InteractionController | null;
}
