'use client';
import type { RunSource, RunState } from '@kestrel/core';
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useKestrelLabels, type KestrelLabels } from './labels.js';
import { PlainText } from './plain-text.js';
import { useOptionalRunContext, usePartRun } from './run-context.js';
import { shallowEqual } from './shallow-equal.js';

/** `final` is the settled `output.assistantText`; the others are draft text (motion, never the result). */
export type AssistantTextMode = 'streaming' | 'detached' | 'interrupted' | 'final';

interface TextSlice {
  readonly mode: AssistantTextMode | null;
  readonly text: string;
}

const none: TextSlice = { mode: null, text: '' };

export function selectAssistantText(state: RunState): TextSlice {
  switch (state.phase) {
    case 'idle':
    case 'connecting':
      return none;
    case 'streaming':
    case 'reconnecting':
      return { mode: 'streaming', text: state.draftText };
    case 'detached':
      return state.draftText === '' ? none : { mode: 'detached', text: state.draftText };
    case 'error':
      // An error after run.completed: the outcome's own text exists, so the draft is neither it nor "incomplete".
      // RunView shows that outcome as received before the error.
      return state.draftText === '' || state.output !== null ? none : { mode: 'interrupted', text: state.draftText };
    case 'settled': {
      // Once settled only the output's own text counts, even when the draft said something else.
      const text = state.output?.assistantText;
      return typeof text === 'string' && text !== '' ? { mode: 'final', text } : none;
    }
    default:
      return state.phase satisfies never;
  }
}

/** How text is turned into elements; the default is plain text. Pass `MarkdownText` from `@kestrel/react/markdown`. */
export type RenderText = (text: string, context: { readonly final: boolean }) => ReactNode;

/** Props of `AssistantText`: the run to read text from, plus attributes for its regions. */
export interface AssistantTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
  /** Turns text into elements (inside `Run.Root`, the root's by default); plain text otherwise. */
  readonly renderText?: RenderText;
  readonly labels?: Partial<KestrelLabels>;
  /** The element showing text now: the draft while it streams, then the final text. */
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The assistant's text, in two regions so a screen reader hears the answer once, and never the draft as the
 * answer. While streaming, the draft is shown, marked in progress, in a labelled group that is not live (nor a landmark)
 * (`data-kestrel-part="draft"`, `aria-busy`); beside it an empty `role="log"` region waits. Once settled, the draft
 * is gone and `output.assistantText` fills that log region (`data-kestrel-part="assistant-text"`): one addition to
 * a live region that was already there, announced once. A run first seen settled shows the final text without
 * announcing it. Text is never interpreted as HTML. Exported as `Run.Text` too.
 *
 * @example
 * <AssistantText run={run} />
 */
export function AssistantText({
  run: ownRun,
  renderText: ownRenderText,
  labels,
  className,
  ref,
  ...rest
}: AssistantTextProps) {
  const run = usePartRun(ownRun, 'Run.Text');
  const rootRenderText = useOptionalRunContext()?.renderText;
  const renderText = ownRenderText ?? (ownRun === undefined ? rootRenderText : undefined);
  const { mode, text } = useRunSelector(run, selectAssistantText, shallowEqual);
  const t = useKestrelLabels(labels);
  if (mode === null) return null;
  const final = mode === 'final';
  const shown = (
    <div data-kestrel-text="">{renderText === undefined ? <PlainText text={text} /> : renderText(text, { final })}</div>
  );
  return (
    <>
      {final ? null : (
        <div
          {...rest}
          ref={ref}
          role="group"
          aria-label={t.draftRegion}
          aria-busy={mode === 'streaming'}
          className={className}
          data-kestrel-part="draft"
          data-state={mode}
        >
          {shown}
          <p data-kestrel-marker={mode}>{mode === 'streaming' ? t.draftInProgress : t.draftInterrupted}</p>
        </div>
      )}
      {/* Present (empty) from the first draft on, so the final text is an addition a screen reader announces. */}
      <div
        {...(final ? rest : {})}
        ref={final ? ref : undefined}
        role="log"
        aria-label={t.assistantRegion}
        className={final ? className : undefined}
        data-kestrel-part={final ? 'assistant-text' : undefined}
        data-state={final ? mode : 'pending'}
      >
        {final ? shown : null}
      </div>
    </>
  );
}
