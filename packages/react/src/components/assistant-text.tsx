'use client';
import type { RunSource, RunState } from '@kestrel/core';
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useKestrelLabels, type KestrelLabels } from './labels.js';
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

/** Props of `AssistantText`: the run to read text from, plus `div` attributes passed through. */
export interface AssistantTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly run: RunSource;
  readonly renderText?: RenderText;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The assistant's text. While streaming it shows the draft, marked as in progress, in a `role="log"` region with
 * `aria-busy`; once settled it shows only `output.assistantText`. Text is never interpreted as HTML.
 *
 * @example
 * <AssistantText run={run} />
 */
export function AssistantText({ run, renderText, labels, className, ref, ...rest }: AssistantTextProps) {
  const { mode, text } = useRunSelector(run, selectAssistantText, shallowEqual);
  const t = useKestrelLabels(labels);
  if (mode === null) return null;
  const final = mode === 'final';
  return (
    <div
      {...rest}
      ref={ref}
      role="log"
      aria-label={t.assistantRegion}
      aria-busy={mode === 'streaming'}
      className={className}
      data-kestrel-part={final ? 'assistant-text' : 'draft'}
      data-state={mode}
    >
      <div data-kestrel-text="">{renderText === undefined ? text : renderText(text, { final })}</div>
      {final ? null : <p data-kestrel-marker={mode}>{mode === 'streaming' ? t.draftInProgress : t.draftInterrupted}</p>}
    </div>
  );
}
