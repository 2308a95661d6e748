'use client';
import {
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type HTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { markShown } from './dropped-parts.js';
import type { RunState } from '@kestrel/core';
import { draftToAnswer, emptyDraft, type AnswerDraft } from './answer-draft.js';
import {
  ApprovalFields,
  ChoiceFields,
  FieldError,
  FormFields,
  TextFields,
  type FieldsProps,
} from './interaction-fields.js';
import { useFocusHome } from './focus-home.js';
import { useRunLabels, type KestrelLabels, type RunLabels } from './labels.js';
import { RenderInteractionContext, usePartRun } from './run-context.js';
import { useOwnElement } from './use-own-element.js';
import { useRunSelector } from '../use-run-selector.js';
import {
  useInteractionController,
  type AnyInteractionController,
  type InteractionController,
  type InteractionRun,
  type RenderInteraction,
} from './use-interaction.js';

// Past three days a countdown ("26328 d 8 h") says less than the date does.
const COUNTDOWN_MS = 3 * 86_400_000;

function expiryText(remaining: number, expiresAt: string, t: RunLabels): string {
  return remaining > COUNTDOWN_MS ? t.expiresOn(new Date(expiresAt)) : t.expiresIn(t.formatRemaining(remaining));
}

/** Props of `InteractionPrompt`: the run (it needs `respond`) plus attributes for its root element. */
export interface InteractionPromptProps extends Omit<HTMLAttributes<HTMLElement>, 'children' | 'onSubmit'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: InteractionRun;
  /**
   * Renders the question your way (inside `Run.Root` and without a `run` of its own, the root's by default); return
   * `undefined` for the kit's own
   * UI for that interaction. The kit keeps the frame around it: the prompt text labelling it, the expiry, the
   * refusal alert, focus on wait.
   */
  readonly renderInteraction?: RenderInteraction;
  /** Move focus to the prompt when it appears (the run starts waiting). Default true. */
  readonly focusOnWait?: boolean;
  /**
   * When an answer sent here comes too late (another tab or device answered first, or the question is gone), the
   * question goes away with the wait and an alert says the answer was not sent (`data-state="not-taken"`), until the
   * run waits again or another run starts. Default true; `false` where the app says it itself (a conversation's
   * thread does, beside the answer).
   */
  readonly notTakenNote?: boolean;
  readonly labels?: Partial<KestrelLabels>;
  /** The clock for the expiry countdown (tests, stories). */
  readonly now?: () => number;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * Asks the person the WAITING interaction's question: approval, choice, text or form, labelled by the
 * interaction's own prompt, or your `renderInteraction`'s UI in the same frame. Checks the answer with
 * `validateInteractionAnswer` before sending, blocks double submission, and keeps what was typed when the server
 * refuses. Renders nothing unless the run is WAITING.
 *
 * @example
 * <InteractionPrompt run={run} />
 */
export function InteractionPrompt({
  run: ownRun,
  renderInteraction,
  now,
  notTakenNote = true,
  ...props
}: InteractionPromptProps) {
  const run = usePartRun(ownRun, 'Run.Prompt');
  if (process.env.NODE_ENV !== 'production') {
    // Development only, and so the same in every render of a build: tells Run.Root the question has a part.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useLayoutEffect(() => markShown(run, 'interaction'), [run]);
  }
  const fromRoot = useContext(RenderInteractionContext);
  // An answer that came too late, for the run it was sent to: said once the question is gone.
  const [late, setLate] = useState<{ readonly runId: string; readonly reason: 'answered-elsewhere' | 'gone' }>();
  // The run the answer went to (the refusal names it): the view may show another run by the time it comes back.
  const controller = useInteractionController(run, now, (reason, answered) => setLate({ runId: answered, reason }));
  const runId = useRunSelector(run, selectRunId);
  // Another run (or none) shown: the note was about the one before, and does not come back with it.
  if (late !== undefined && late.runId !== runId) setLate(undefined);
  if (controller === null) {
    if (late === undefined || !notTakenNote || late.runId !== runId) return null;
    return <NotTaken reason={late.reason} labels={props.labels} className={props.className} />;
  }
  // A new question: the late answer belonged to the one before.
  if (late !== undefined) setLate(undefined);
  // A part given its own run is not the root's run: the root's renderer was not written for it.
  const render = renderInteraction ?? (ownRun === undefined ? fromRoot : undefined);
  const custom = render?.(controller as InteractionController);
  // A new interaction starts from an empty answer.
  return <PromptForm key={controller.interaction.id} controller={controller} custom={custom} {...props} />;
}

const selectRunId = (state: RunState) => state.runId;

/** Where the question was: an answer sent here was not taken, and why (an alert: the person just pressed Send). */
function NotTaken({
  reason,
  labels,
  className,
}: {
  readonly reason: 'answered-elsewhere' | 'gone';
  readonly labels: Partial<KestrelLabels> | undefined;
  readonly className: string | undefined;
}) {
  const t = useRunLabels(labels);
  return (
    <p role="alert" className={className} data-kestrel-part="interaction" data-state="not-taken">
      {t.answerNotTaken(reason)}
    </p>
  );
}

// The input types a person types into. A checkbox's value ("on"), a select's or a range's is not typing.
const TEXT_INPUT = /^(text|search|email|url|tel|password|number|date|time|datetime-local|month|week)$/;

/**
 * Whether `element` (the focused one) is an editable text field holding text: a textarea, a text input, an editable
 * region, inside open shadow roots too. A read-only field (a share link) is not typing. A custom element whose
 * shadow root is closed is judged by the `value` it exposes, as form-associated text fields (Shoelace, Material) do.
 */
function holdsTyping(element: Element | null): boolean {
  let focused = element;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  if (focused instanceof HTMLTextAreaElement) return !focused.readOnly && focused.value !== '';
  if (focused instanceof HTMLInputElement)
    return TEXT_INPUT.test(focused.type) && !focused.readOnly && focused.value !== '';
  if (focused instanceof HTMLElement && focused.isContentEditable) return focused.textContent?.trim() !== '';
  const value = (focused as { value?: unknown } | null)?.value;
  return focused?.localName.includes('-') === true && typeof value === 'string' && value !== '';
}

interface PromptFormProps extends Omit<InteractionPromptProps, 'run' | 'renderInteraction' | 'now'> {
  readonly controller: AnyInteractionController;
  /** What the app rendered; `undefined` for the built-in UI. */
  readonly custom: ReactNode;
}

function PromptForm({ controller, custom, focusOnWait = true, labels, className, ref, ...rest }: PromptFormProps) {
  const { interaction, state, expiry, rejection } = controller;
  const t = useRunLabels(labels);
  const baseId = useId();
  const promptId = `${baseId}-prompt`;
  const [root, setRoot] = useOwnElement(ref);
  useFocusHome(root);
  const [draft, setDraft] = useState<AnswerDraft>(emptyDraft);
  const approved = useRef(true);
  const [decision, setDecision] = useState<'approve' | 'reject'>('approve');

  useEffect(() => {
    // Never from a field holding what the person is typing (a conversation's composer): the status says it waits.
    if (focusOnWait && !holdsTyping(document.activeElement)) root.current?.focus();
  }, [focusOnWait, root]);

  const busy = state === 'submitting';
  const blocked = busy || state === 'expired';

  const choose = (approve: boolean) => {
    if (busy) return;
    approved.current = approve;
    setDecision(approve ? 'approve' : 'reject');
  };

  const update = (change: Partial<AnswerDraft>) => setDraft((current) => ({ ...current, ...change }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void controller.answer(draftToAnswer(interaction, draft, approved.current)).then((result) => {
      if (result === 'invalid')
        requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    });
  };

  const common = {
    ...rest,
    ref: setRoot,
    className,
    tabIndex: -1,
    'aria-labelledby': promptId,
    'aria-busy': busy,
    'data-kestrel-part': 'interaction',
    'data-kind': interaction.kind,
    'data-state': state,
  } as const;
  const prompt = (
    <p id={promptId} data-kestrel-prompt="">
      {interaction.prompt}
    </p>
  );
  const remaining = expiry?.remainingMs ?? null;
  const expiryLine =
    expiry === null || remaining === null ? null : (
      <p data-kestrel-expiry={expiry.expired ? 'expired' : 'pending'}>
        {expiry.expired ? (
          t.expired
        ) : (
          <time dateTime={expiry.expiresAt}>{expiryText(remaining, expiry.expiresAt, t)}</time>
        )}
      </p>
    );
  const alert =
    rejection === null ? null : (
      <p role="alert" data-kestrel-rejection={rejection.kind}>
        {rejection.kind === 'unsent' ? t.unsent(rejection.message) : t.rejected(rejection.message)}
      </p>
    );

  if (custom !== undefined) {
    return (
      <div {...common} role="group" data-authored="app">
        {prompt}
        {expiryLine}
        {custom}
        {alert}
      </div>
    );
  }

  if (interaction.kind === 'unsupported') {
    return (
      <div {...common} role="group" data-original-kind={interaction.originalKind}>
        {prompt}
        <p>{t.unsupported(interaction.originalKind)}</p>
      </div>
    );
  }

  const errors: Record<string, string> = {};
  for (const [key, issue] of Object.entries(controller.issues))
    if (issue !== undefined) errors[key] = t.answerIssue(issue);
  const fields: Omit<FieldsProps<unknown>, 'interaction'> = { draft, update, errors, baseId, promptId, labels: t };
  return (
    <form {...common} noValidate onSubmit={submit}>
      {prompt}
      {expiryLine}
      {interaction.kind === 'approval' ? <ApprovalFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'choice' ? <ChoiceFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'text' ? <TextFields interaction={interaction} {...fields} /> : null}
      {interaction.kind === 'form' ? <FormFields interaction={interaction} {...fields} /> : null}
      <FieldError baseId={baseId} errorKey="form" errors={errors} />
      {state === 'invalid' ? <p data-kestrel-form-error="">{t.fixErrors}</p> : null}
      {alert}
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
