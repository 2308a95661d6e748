'use client';
import type { RunBinding, RunSource } from '@kestrel/core';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { RenderText } from './assistant-text.js';
import type { RenderPayload } from './payload-panel.js';
import type { ToolRenderers } from './tool-renderer.js';
import type { RenderInteraction } from './use-interaction.js';

/**
 * Which parts are mounted under a `Run.Root`, so two parts never say the same thing aloud: while a `Run.Error`
 * (a `role="alert"`) is mounted, `Run.Status` keeps its error sentence but stops announcing it.
 */
export interface PartRegistry {
  readonly subscribe: (listener: () => void) => () => void;
  readonly hasError: () => boolean;
  /** Marks a `Run.Error` as mounted; returns the unmount. */
  readonly addError: () => () => void;
}

function createPartRegistry(): PartRegistry {
  let errors = 0;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasError: () => errors > 0,
    addError: () => {
      errors += 1;
      notify();
      return () => {
        errors -= 1;
        notify();
      };
    },
  };
}

/**
 * What `Run.Root` shares with every part. It changes only when the run's functions or `renderText` do (the markdown
 * entry's is a module-level function), so a parent re-rendering on each delta re-renders no part through it.
 */
export interface RunContextValue {
  readonly run: RunBinding<unknown>;
  readonly renderText: RenderText | undefined;
  readonly parts: PartRegistry;
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

/**
 * Whether two sources are the same run: the same object, or two objects with the same `getState` and `subscribe`
 * (what `useRun` returns is a new object on every change, holding the same functions).
 */
export function isSameRun(a: RunSource<unknown> | undefined, b: RunSource<unknown> | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.getState === b.getState && a.subscribe === b.subscribe;
}

/** A fresh registry for one root (kept in the root's state). */
export const newPartRegistry = createPartRegistry;

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

const noError = () => false;
const noSubscription = () => () => undefined;

/** Whether a `Run.Error` is mounted under the same root (always `false` outside a root). */
export function useErrorPartMounted(): boolean {
  const parts = useContext(RunContext)?.parts;
  return useSyncExternalStore(
    parts?.subscribe ?? noSubscription,
    parts?.hasError ?? noError,
    parts?.hasError ?? noError,
  );
}
