'use client';
import type { RunBinding } from '@kestrel/core';
import { createContext, useContext } from 'react';
import type { RenderText } from './assistant-text.js';
import type { RenderPayload } from './payload-panel.js';
import type { ToolRenderers } from './tool-renderer.js';
import type { RenderInteraction } from './use-interaction.js';

/**
 * What `Run.Root` shares with every part. It changes only when the run's functions or `renderText` do (the markdown
 * entry's is a module-level function), so a parent re-rendering on each delta re-renders no part through it.
 */
export interface RunContextValue {
  readonly run: RunBinding<unknown>;
  readonly renderText: RenderText | undefined;
}

export const RunContext = createContext<RunContextValue | null>(null);

/*
 * `renderPayload`, `tools` and `renderInteraction` are often written inline (`renderPayload={(invoice) => ...}`), so they are new on every
 * render of the component holding `useRun`: each has its own context, and only the parts that use it follow it.
 * The payload type is erased here; `Run.Root` checked the renderer against the run.
 */
export const RenderPayloadContext = createContext<RenderPayload<unknown> | undefined>(undefined);
export const ToolsContext = createContext<ToolRenderers | undefined>(undefined);
/** The root's `renderInteraction`, for `Run.Prompt`. */
export const RenderInteractionContext = createContext<RenderInteraction | undefined>(undefined);

/** The root's `renderPayload`, for `Run.Payload` and `Run.ReceivedOutcome`. */
export function useRootRenderPayload(): RenderPayload<unknown> | undefined {
  return useContext(RenderPayloadContext);
}

/** The root's tool renderers, for `Run.Activity`. */
export function useRootTools(): ToolRenderers | undefined {
  return useContext(ToolsContext);
}

/** A fresh registry for one root (kept in the root's state). */
/** The context of the nearest `Run.Root`, or `null` outside one. */
export function useOptionalRunContext(): RunContextValue | null {
  return useContext(RunContext);
}

/**
 * The run of the nearest `Run.Root`: for an app's own part inside a composition, read with `useRunSelector`.
 * Throws a clear error outside a root.
 *
 * @example
 * const run = useRunContext();
 * const phase = useRunSelector(run, (state) => state.phase);
 */
export function useRunContext(): RunBinding<unknown> {
  const context = useContext(RunContext);
  if (context === null) throw new Error('useRunContext() needs a <Run.Root run={run}> above it.');
  return context.run;
}

/**
 * A part's run: its own `run` prop when given (the part is used alone), else the root's. Throws an error naming
 * the part when it has neither, instead of rendering a view of nothing.
 */
export function usePartRun<R>(own: R | undefined, part: string): R | RunBinding<unknown> {
  const context = useContext(RunContext);
  if (own !== undefined) return own;
  if (context === null)
    throw new Error(`<${part}> needs a run: render it inside <Run.Root run={run}> or pass run={run}.`);
  return context.run;
}
