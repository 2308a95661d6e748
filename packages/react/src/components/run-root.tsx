'use client';
import type { RunBinding, RunOutputStatus, RunPhase, RunState } from '@kestrel/core';
import { Slot } from './slot.js';
import { useEffect, useMemo, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { useRunSelector } from '../use-run-selector.js';
import { KestrelLabelsProvider } from './labels.js';
import type { RenderPayload } from './payload-panel.js';
import {
  RenderInteractionContext,
  RenderPayloadContext,
  RunContext,
  ToolsContext,
  type RunContextValue,
} from './run-context.js';
import { shallowEqual } from './shallow-equal.js';
import { DROPPED_PART_CHECK_MS, warnDroppedParts } from './dropped-parts.js';
import { useOwnElement } from './use-own-element.js';
import { useStableBinding } from './use-stable-binding.js';
import type { ViewRenderers } from './view-renderers.js';

interface RootSlice {
  readonly phase: RunPhase;
  readonly status: RunOutputStatus | undefined;
}

// The root re-renders on phase and status changes only; its parts on their own slices.
function selectRoot(state: RunState): RootSlice {
  return { phase: state.phase, status: state.phase === 'settled' ? state.status : undefined };
}

/** Props of `Run.Root`; `P` is the payload type, so `renderPayload` gets it typed. */
export interface RunRootProps<P> extends HTMLAttributes<HTMLElement>, ViewRenderers<P> {
  /** The run every part below reads: what `useRun` returns, or any source plus actions. */
  readonly run: RunBinding<P>;
  readonly children?: ReactNode;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * The root of a run view: a `<section data-kestrel-run data-phase data-status>` that gives its run (and
 * renderers, tool renderers and labels) to every part below, so parts need no `run` prop. Compose the parts in any
 * order, leave some out, or put your own markup between them; `RunView` is the default composition.
 *
 * @example
 * <Run.Root run={run} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />}>
 *   <Run.Status className="sr-only" />
 *   <Run.Payload />
 *   <Run.Text />
 * </Run.Root>
 */
export function RunRoot<P>({
  run,
  renderPayload,
  renderText,
  tools,
  renderInteraction,
  labels,
  asChild = false,
  children,
  ref,
  ...rest
}: RunRootProps<P>) {
  const binding = useStableBinding(run as RunBinding<unknown>);
  const { phase, status } = useRunSelector(binding, selectRoot, shallowEqual);
  const context = useMemo<RunContextValue>(() => ({ run: binding, renderText }), [binding, renderText]);
  const [own, setRef] = useOwnElement(ref);
  if (process.env.NODE_ENV !== 'production') {
    // Development only, and so the same in every render of a build: bundlers drop the hook and its warning.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useEffect(() => {
      if (phase !== 'settled') return;
      const timer = setTimeout(() => warnDroppedParts(own, binding), DROPPED_PART_CHECK_MS);
      return () => clearTimeout(timer);
    }, [own, binding, phase, status]);
  }
  const Comp = asChild ? Slot : 'section';
  const body = (
    <RunContext.Provider value={context}>
      {/* The renderer was checked against the run's payload type here; parts get it with the type erased. */}
      <RenderPayloadContext.Provider value={renderPayload as RenderPayload<unknown> | undefined}>
        <ToolsContext.Provider value={tools}>
          <RenderInteractionContext.Provider value={renderInteraction}>
            <Comp {...rest} ref={setRef} data-kestrel-run="" data-phase={phase} data-status={status}>
              {children}
            </Comp>
          </RenderInteractionContext.Provider>
        </ToolsContext.Provider>
      </RenderPayloadContext.Provider>
    </RunContext.Provider>
  );
  // The parts read labels from context, so a `labels` prop here reaches all of them.
  return labels === undefined ? body : <KestrelLabelsProvider labels={labels}>{body}</KestrelLabelsProvider>;
}
