'use client';
import type { RunSource, RunState } from '@kestrel/core';
import { useRef, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { useRunLabels, type KestrelLabels } from './labels.js';
import { PlainText } from './plain-text.js';
import { SettledAnnouncement } from './settled-announcement.js';
import { useOptionalRunContext, usePartRun } from './run-context.js';
import { shallowEqual } from './shallow-equal.js';

/** `final` is the settled `output.assistantText`; the others are draft text (motion, never the result). */
export type AssistantTextMode = 'streaming' | 'detached' | 'interrupted' | 'final';

interface TextSlice {
  readonly mode: AssistantTextMode | null;
  readonly text: string;
  /**
   * A CANCELLED or FAILED run's text: what it said before it was stopped or failed, named so (a screen reader reads
   * the label), never as the answer.
   */
  readonly cutShort?: 'CANCELLED' | 'FAILED';
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
      const text = state.output.assistantText;
      return typeof text === 'string' && text !== ''
        ? {
            mode: 'final',
            text,
            cutShort: state.status === 'CANCELLED' || state.status === 'FAILED' ? state.status : undefined,
          }
        : none;
    }
    default:
      return state satisfies never;
  }
}

/**
 * How text is turned into elements; the default is plain text. Pass `renderMarkdown` from `@kestrel/react/markdown`.
 * `final`: the settled answer. `streaming`: more of the text is on its way (a draft that stopped short, detached or
 * interrupted, is neither: nothing more will be added to it as it is shown, so show it as written). The kit's parts
 * always say `streaming`; an app's own code that calls a `RenderText` may leave it out, for `!final`.
 */
export type RenderText = (
  text: string,
  context: { readonly final: boolean; readonly streaming?: boolean },
) => ReactNode;

/** Props of `AssistantText`: the run to read text from, plus attributes for the element showing its text. */
export interface AssistantTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's. */
  readonly run?: RunSource;
  /** Turns text into elements (inside `Run.Root`, the root's by default); plain text otherwise. */
  readonly renderText?: RenderText;
  readonly labels?: Partial<KestrelLabels>;
  /** The element showing text now: the draft while it streams, then (the same element) the final text. */
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * The assistant's text, in one element from the first draft to the final text, so settling changes what it says
 * about the text, not the text: the elements already shown are kept (no remount, no layout of the answer again).
 * While streaming, the draft is marked in progress in a labelled group that is not live (nor a landmark)
 * (`data-kestrel-part="draft"`, `aria-busy`, "Assistant response, in progress"). Once settled, the same group
 * shows `output.assistantText` (`data-kestrel-part="assistant-text"`, "Assistant response"; "Assistant response,
 * stopped before the end" for a CANCELLED run, "Assistant response, from a run that failed" for a FAILED one), even
 * when the draft said something else.
 *
 * A screen reader hears the answer once, and never the draft as the answer: a visually hidden polite live region
 * just before the group, empty while the draft streams, receives the settled answer as it is shown, as plain text (one
 * text node, never HTML), cut at a word boundary after about 4,000 characters and then marked as continuing on the
 * page (`labels.answerContinues`). It is emptied again 7 seconds later, so browsing the page finds the answer once.
 * A CANCELLED or FAILED run's text is not announced: the status says what happened, and the text is not an answer.
 * A run first seen settled (a history, a run resumed with its result) announces nothing; one re-attached by id replays
 * its events, and is heard as it settles again. Exported as `Run.Text` too.
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
  const { mode, text, cutShort } = useRunSelector(run, selectAssistantText, shallowEqual);
  const t = useRunLabels(labels);
  const shown = useRef<HTMLDivElement | null>(null);
  if (mode === null) return null;
  const final = mode === 'final';
  // One element, same children in the same places in every mode: React keeps the text's elements on settling.
  return (
    <>
      {/* Before the text, so the parts after Run.Text (the finish notice) stay right after it. */}
      <SettledAnnouncement run={run} mode={mode} shown={shown} continues={t.answerContinues} />
      <div
        {...rest}
        ref={ref}
        role="group"
        // No longer "in progress" once the stream stopped short: its marker says what it is then.
        aria-label={
          mode === 'streaming'
            ? t.draftRegion
            : cutShort === 'CANCELLED'
              ? t.cancelledRegion
              : cutShort === 'FAILED'
                ? t.failedRegion
                : t.assistantRegion
        }
        aria-busy={mode === 'streaming'}
        className={className}
        data-kestrel-part={final ? 'assistant-text' : 'draft'}
        data-state={mode}
      >
        <div ref={shown} data-kestrel-text="">
          {renderText === undefined ? (
            <PlainText text={text} />
          ) : (
            renderText(text, { final, streaming: mode === 'streaming' })
          )}
        </div>
        {final ? null : (
          <p data-kestrel-marker={mode}>{mode === 'streaming' ? t.draftInProgress : t.draftInterrupted}</p>
        )}
      </div>
    </>
  );
}
