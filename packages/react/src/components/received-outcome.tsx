'use client';
import type { RunOutput, RunSource, RunState } from '@kestrel/core';
import { useId, type HTMLAttributes, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import type { RenderText } from './assistant-text.js';
import { useRunLabels, type KestrelLabels, type RunLabels } from './labels.js';
import { PayloadPanel, type RenderPayload } from './payload-panel.js';
import { PlainText } from './plain-text.js';
import { useOptionalRunContext, usePartRun, useRootRenderPayload } from './run-context.js';

// Only a protocol error can follow run.completed, and the reducer keeps the output it followed.
function selectReceived(state: RunState): RunOutput | null {
  return state.phase === 'error' ? state.output : null;
}

/** Props of `ReceivedOutcome`: the same renderers as `RunView`, for the outcome kept when a protocol error followed it. */
export interface ReceivedOutcomeProps<P> extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The run; inside `Run.Root`, the root's (with its `renderText` and `renderPayload` as defaults). */
  readonly run?: RunSource<P>;
  readonly renderText?: RenderText;
  readonly renderPayload?: RenderPayload<P>;
  readonly labels?: Partial<KestrelLabels>;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * The outcome a run reported before the server broke the protocol (an event after `run.completed`). It was
 * received, so it is shown, in a region headed "Received before the error", next to the error rather than as the
 * run's current outcome. Renders nothing otherwise. Exported as `Run.ReceivedOutcome` too.
 *
 * @example
 * <RunErrorAlert run={run} />
 * <ReceivedOutcome run={run} />
 */
export function ReceivedOutcome<P>({
  run: ownRun,
  renderText: ownText,
  renderPayload: ownPayload,
  labels,
  className,
  ref,
  ...rest
}: ReceivedOutcomeProps<P>) {
  const run = usePartRun(ownRun, 'Run.ReceivedOutcome') as RunSource<P>;
  const rootText = useOptionalRunContext()?.renderText;
  const rootPayload = useRootRenderPayload() as RenderPayload<P> | undefined;
  // The root's renderers belong to the root's run: a part given its own run does not borrow them.
  const renderText = ownText ?? (ownRun === undefined ? rootText : undefined);
  const renderPayload = ownPayload ?? (ownRun === undefined ? rootPayload : undefined);
  const output = useRunSelector(run, selectReceived);
  const t = useRunLabels(labels);
  const headingId = useId();
  if (output === null) return null;
  const text = output.assistantText;
  return (
    <section
      {...rest}
      ref={ref}
      className={className}
      aria-labelledby={headingId}
      data-kestrel-part="received-outcome"
      data-status={output.status}
    >
      <p id={headingId} data-kestrel-heading="">
        {t.receivedOutcome(output.status)}
      </p>
      <OutcomeDetail output={output} labels={t} />
      {typeof text === 'string' && text !== '' ? (
        <div data-kestrel-text="">
          {renderText === undefined ? <PlainText text={text} /> : renderText(text, { final: true, streaming: false })}
        </div>
      ) : null}
      <PayloadPanel run={run} renderPayload={renderPayload} labels={labels} receivedBeforeError />
    </section>
  );
}

function OutcomeDetail({ output, labels }: { output: RunOutput; labels: RunLabels }) {
  switch (output.status) {
    case 'COMPLETED':
      return null;
    case 'FAILED':
      return (
        <p>
          {output.error.message} <code>{labels.failedCode(output.error.code)}</code>
        </p>
      );
    case 'CANCELLED':
      return (
        <>
          <p>{labels.cancelledTitle(output.cancellation.by)}</p>
          {output.cancellation.reason.trim() === '' ? null : (
            <p>{labels.cancelledReason(output.cancellation.reason)}</p>
          )}
        </>
      );
    case 'WAITING':
      return <p>{labels.receivedInteraction(output.interaction.prompt)}</p>;
    default:
      return output satisfies never;
  }
}
