'use client';
import type { RunBinding } from '@kestrel/core';
import { useMemo } from 'react';

/**
 * The run's binding, the same object for as long as its functions are the same. `useRun` returns a new object on
 * every change (it carries `state`); keyed on that, a root would hand every part a new context each frame.
 */
export function useStableBinding<P>(run: RunBinding<P>): RunBinding<P> {
  const { getState, subscribe, start, resume, respond, cancel, detach, retry, getRetryMode, reset } = run;
  return useMemo(
    () => ({ getState, subscribe, start, resume, respond, cancel, detach, retry, getRetryMode, reset }),
    [getState, subscribe, start, resume, respond, cancel, detach, retry, getRetryMode, reset],
  );
}
