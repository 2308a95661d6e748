'use client';
import {
  isRunClientError,
  RunUsageError,
  validateInteractionAnswer,
  type AnswerIssue,
  type Interaction,
  type RunSource,
  type RunState,
} from '@kestrel/core';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type HTMLAttributes, type Ref } from 'react';
import type { RunActions } from '../types.js';
import { useRunSelector } from '../use-run-selector.js';
import { usePartRun } from './run-context.js';
import { draftToAnswer, emptyDraft, issuesByKey, type AnswerDraft } from './answer-draft.js';
import {
  ApprovalFields,
  ChoiceFields,
  FieldError,
  FormFields,
  TextFields,
  type FieldsProps,
} from './interaction-fields.js';
import { useKestrelLabels, type KestrelLabels } from './labels.js';
import { useCountdown } from './use-countdown.js';

// Past three days a countdown ("26328 d 8 h") says less than the date does.
const COUNTDOWN_MS = 3 * 86_400_000;

function expiryText(remaining: number, expiresAt: string | undefined, t: KestrelLabels): string {
  return remaining > COUNTDOWN_MS && expiresAt !== undefined
    ? t.expiresOn(new Date(expiresAt))
    : t.expiresIn(t.formatRemaining(remaining));
}

function selectInteraction(state: RunState): Interaction | null {
  return state.phase === 'settled' && state.output?.status === 'WAITING' ? state.output.interaction : null;
}

/**
 * `idle` ready to answer, `invalid` after a failed check, `submitting` while the answer is on its way, `rejected`
 * when it was refused, `unsent` when it did not get through (connection lost, no response in time), `expired`.
 */
export type PromptState = 'idle' | 'invalid' | 'submitting' | 'rejected' | 'unsent' | 'expired';

/** Props of `InteractionPrompt`: the run (it needs `respond`) plus attributes for its root element. */
export interface InteractionPromptProps extends Omit<HTMLAttributes<HTMLElement>, 'children' | 'onSubmit'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource & Pick<RunActions, 'respond'>;
  /** Move focus to the prompt when it appears (the run starts waiting). Default true. */
  readonly focusOnWait?: boolean;
  readonly labels?: Partial<KestrelLabels>;
  /** The clock for the expiry countdown (tests, stories). */
  readonly now?: () => number;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * Asks the person the WAITING interaction's question: approval, choice, text or form, labelled by the
 * interaction's own prompt. Checks the answer with `validateInteractionAnswer` before sending, blocks double
 * submission, and keeps what was typed when the server refuses. Renders nothing unless the run is WAITING.
 *
 * @example
 * <InteractionPrompt run={run} />
 */
export function InteractionPrompt({ run: ownRun, ...props }: InteractionPromptProps) {
  const run = usePartRun(ownRun, 'Run.Prompt');
  const interaction = useRunSelector(run, selectInteraction);
  if (interaction === null) return null;
  // A new interaction starts from an empty answer.
  return <PromptForm key={interaction.id} interaction={interaction} respond={run.respond} {...props} />;
}

interface PromptFormProps extends Omit<InteractionPromptProps, 'run'> {
  readonly interaction: Interaction;
  readonly respond: RunActions['respond'];
}

function rejectionOf(error: unknown): { message: string; issues: readonly AnswerIssue[]; unsent: boolean } {
  const issues =
    typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues)
      ? (error as { issues: AnswerIssue[] }).issues
      : [];
  // A network failure is not the server's verdict: saying "not accepted" would claim a refusal nobody made.
  const unsent = isRunClientError(error) && (error.kind === 'transport' || error.kind === 'timeout');
  return { message: error instanceof Error ? error.message : String(error), issues, unsent };
}

function PromptForm({
  interaction,
  respond,
  focusOnWait = true,
  labels,
  now,
  className,
  ref,
  ...rest
}: PromptFormProps) {
  const t = useKestrelLabels(labels);
  const baseId = useId();
  const promptId = `${baseId}-prompt`;
  const root = useRef<HTMLElement | null>(null);
  const setRoot = useCallback(
    (node: HTMLElement | null) => {
      root.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref !== null && ref !== undefined) ref.current = node;
    },
    [ref],
  );
  const [draft, setDraft] = useState<AnswerDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [state, setState] = useState<PromptState>('idle');
  const [rejection, setRejection] = useState<{ readonly message: string; readonly unsent: boolean } | null>(null);
  const submitting = useRef(false);
  const approved = useRef(true);
  const [decision, setDecision] = useState<'approve' | 'reject'>('approve');
  const remaining = useCountdown(interaction.expiresAt, now);
  // The client's own clock may say so a moment before this countdown does: its refusal counts as expiry too.
  const expired = remaining === 0 || state === 'expired';

  useEffect(() => {
    if (focusOnWait) root.current?.focus();
  }, [focusOnWait]);

  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const choose = (approve: boolean) => {
    if (submitting.current) return;
    approved.current = approve;
    setDecision(approve ? 'approve' : 'reject');
  };

  const update = (change: Partial<AnswerDraft>) => setDraft((current) => ({ ...current, ...change }));

  const focusFirstInvalid = () => {
    requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current || expired) return;
    const check = validateInteractionAnswer(interaction, draftToAnswer(interaction, draft, approved.current));
    if (!check.valid) {
      setErrors(issuesByKey(check.issues, t.answerIssue));
      setState('invalid');
      focusFirstInvalid();
      return;
    }
    submitting.current = true;
    setErrors({});
    setRejection(null);
    setState('submitting');
    respond(check.answer).then(
      () => {
        submitting.current = false;
        if (mounted.current) setState('idle');
      },
      (error: unknown) => {
        submitting.current = false;
        if (!mounted.current) return;
        if (error instanceof RunUsageError && error.reason === 'expired') {
          setState('expired');
          return;
        }
        const { message, issues, unsent } = rejectionOf(error);
        setErrors(issuesByKey(issues, t.answerIssue));
        setRejection({ message, unsent });
        setState(unsent ? 'unsent' : 'rejected');
      },
    );
  };

  const shownState: PromptState = expired ? 'expired' : state;
  const common = {
    ...rest,
    ref: setRoot,
    className,
    tabIndex: -1,
    'aria-labelledby': promptId,
    'data-kestrel-part': 'interaction',
    'data-kind': interaction.kind,
    'data-state': shownState,
  } as const;
  const prompt = (
    <p id={promptId} data-kestrel-prompt="">
      {interaction.prompt}
    </p>
  );

  if (interaction.kind === 'unsupported') {
    return (
      <div {...common} role="group" data-original-kind={interaction.originalKind}>
        {prompt}
        <p>{t.unsupported(interaction.originalKind)}</p>
      </div>
    );
  }

  const fields: Omit<FieldsProps<unknown>, 'interaction'> = { draft, update, errors, baseId, promptId, labels: t };
  const busy = shownState === 'submitting';
  const blocked = busy || expired;
  return (
    <form {...common} noValidate aria-busy={busy} onSubmit={submit}>
      {prompt}
      {remaining === null ? null : (
        <p data-kestrel-expiry={expired ? 'expired' : 'pending'}>
          {expired ? (
            t.expired
          ) : (
            <time dateTime={interaction.expiresAt}>{expiryText(remaining, interaction.expiresAt, t)}</time>
          )}
        </p>
      )}
      {interaction.kind === 'approval' ? <ApprovalFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'choice' ? <ChoiceFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'text' ? <TextFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'form' ? <FormFields interaction={interaction} {...fields} /> : null}
      <FieldError baseId={baseId} errorKey="form" errors={errors} />
      {shownState === 'invalid' ? <p data-kestrel-form-error="">{t.fixErrors}</p> : null}
      {rejection === null ? null : (
        <p role="alert" data-kestrel-rejection={rejection.unsent ? 'unsent' : 'rejected'}>
          {rejection.unsent ? t.unsent(rejection.message) : t.rejected(rejection.message)}
        </p>
      )}
      <div data-kestrel-actions="">
        {interaction.kind === 'approval' ? (
          <>
            <button
              type="submit"
              aria-disabled={blocked}
              data-decision="approve"
              data-kestrel-action="approve"
              onClick={() => choose(true)}
            >
              {busy && decision === 'approve' ? t.submitting : t.approve}
            </button>
            <button
              type="submit"
              aria-disabled={blocked}
              data-decision="reject"
              data-kestrel-action="reject"
              onClick={() => choose(false)}
            >
              {busy && decision === 'reject' ? t.submitting : t.reject}
            </button>
          </>
        ) : (
          <button type="submit" aria-disabled={blocked} data-kestrel-action="submit">
            {busy ? t.submitting : t.submit}
          </button>
        )}
      </div>
    </form>
  );
}
