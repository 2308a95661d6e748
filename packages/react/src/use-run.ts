'use client';
import type { RunState } from '@kestrel/core';
import { useMemo, useSyncExternalStore } from 'react';
import type { UseRunResult } from './types.js';
import { toBinding, useRunController, type UseRunOptions } from './use-run-binding.js';

/**
 * Starts, follows, answers, cancels and detaches a Kestrel run, and re-renders with its state. Action functions
 * are stable; `state` is the current attempt's `RunState` (idle before any run, and on the server).
 *
 * Read `state.phase` first, then `state.output.status`: streamed `draftText` is motion, never the result.
 *
 * @example
 * // responseFormat asks for the structured output payloadSchema checks (without it no payload is sent).
 * const run = useRun({ payloadSchema: invoiceSchema, responseFormat: invoiceFormat, onSettled: (event) => save(event) });
 * if (run.state.phase === 'settled' && run.state.status === 'COMPLETED') show(run.state.payload);
 * <button onClick={() => run.start('Extract the invoice')}>Extract</button>
 */
export function useRun<P = unknown>(options: UseRunOptions<P> = {}): UseRunResult<P> {
  const controller = useRunController(options);
  const binding = useMemo(() => toBinding(controller), [controller]);
  const state: RunState<P> = useSyncExternalStore(controller.subscribe, controller.getState, controller.getServerState);
  return useMemo(() => ({ ...binding, state }), [binding, state]);
}
