'use client';
import {
  createRunController,
  type PayloadSchema,
  type ResponseFormat,
  type RunBinding,
  type RunClient,
  type RunCompletedEvent,
  type RunController,
  type RunControllerOptions,
  type RunError,
} from '@kestrel/core';
import { kestrelIdProblem } from '@kestrel/core/internal';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useClientOption, useReleaseOnUnmount } from './use-client-option.js';

/** Options of `useRun`/`useRunBinding`, all optional under a `KestrelProvider`. Give `payloadSchema` to type `state.payload.value`. */
export interface UseRunOptions<P = unknown> {
  /** The run client; defaults to one made from `baseUrl`, then to the `KestrelProvider`'s. */
  readonly client?: RunClient;
  /** Where Kestrel (or your backend in front of it) answers `/v1/...`, when no client is given. */
  readonly baseUrl?: string;
  /** The session new runs start in; defaults to the provider's, then `new`. */
  readonly sessionId?: string;
  /** Structured output to request on every start; defaults to the provider's. */
  readonly responseFormat?: ResponseFormat;
  /** Checks `finalizedPayload`. Its inferred output type becomes `state.payload.value`. */
  readonly payloadSchema?: PayloadSchema<P>;
  /** Once per settled attempt (WAITING included). The latest function is called; changing it restarts nothing. */
  readonly onSettled?: (event: RunCompletedEvent) => void;
  /** Once per error that stopped the run short of an outcome. The latest function is called. */
  readonly onError?: (error: RunError) => void;
  /** A run to re-attach to on mount, e.g. the id you kept in the URL or storage before a reload. */
  readonly resumeRunId?: string | null;
  /** Cancel the run on the server when the component unmounts. Default `false`: unmounting only detaches. */
  readonly cancelOnUnmount?: boolean;
}

export function toBinding<P>(controller: RunController<P>): RunBinding<P> {
  const { getState, subscribe, start, resume, respond, cancel, detach, retry, getRetryMode, reset } = controller;
  return { getState, subscribe, start, resume, respond, cancel, detach, retry, getRetryMode, reset };
}

/** The run controller of this component: created once, kept up to date with the options, released on unmount. */
export function useRunController<P>(options: UseRunOptions<P>): RunController<P> {
  const { client: givenClient, baseUrl, resumeRunId, cancelOnUnmount = false } = options;
  const { client, context } = useClientOption('useRun()', givenClient, baseUrl);
  const defaults = context?.defaults;
  const controllerOptions: RunControllerOptions<P> = {
    client,
    sessionId: options.sessionId ?? defaults?.sessionId,
    responseFormat: options.responseFormat ?? defaults?.responseFormat,
    payloadSchema: options.payloadSchema,
    onSettled: (event) => {
      options.onSettled?.(event);
      defaults?.onSettled?.(event);
    },
    onError: (error) => {
      options.onError?.(error);
      defaults?.onError?.(error);
    },
  };
  // Created once per mounted component; creating it sends nothing, so StrictMode's double render is harmless.
  const [controller] = useState(() => createRunController(controllerOptions));
  const cancelOnUnmountRef = useRef(cancelOnUnmount);
  useLayoutEffect(() => {
    controller.setOptions(controllerOptions);
    cancelOnUnmountRef.current = cancelOnUnmount;
  });

  useReleaseOnUnmount(controller, () => {
    if (!cancelOnUnmountRef.current) return controller.detach();
    controller.cancel().then(controller.detach, controller.detach);
  });

  useEffect(() => {
    // `resume` is a no-op while this run is already followed, so a second mount sends nothing. An id no request may
    // carry (`?run=` read from a URL gives '', a crafted link '..') names no run: nothing to resume, where a usage
    // error thrown out of an effect would take the page down.
    const problem = kestrelIdProblem(resumeRunId ?? '');
    if (problem === undefined) controller.resume(resumeRunId!);
    else if (process.env.NODE_ENV !== 'production' && resumeRunId)
      console.warn(`[kestrel] useRun(): resumeRunId ${problem}, so no run is resumed.`);
  }, [controller, resumeRunId]);

  return controller;
}

/**
 * The controller behind `useRun`, without subscribing to its state: the component that calls it does not
 * re-render while the run streams. Hand the binding to components that read slices with `useRunSelector`.
 * Returns the same binding on every render.
 *
 * @example
 * const run = useRunBinding({ baseUrl: '/api/kestrel' });
 * return <><Status run={run} /><button onClick={() => run.start('Hi')}>Ask</button></>;
 */
export function useRunBinding<P = unknown>(options: UseRunOptions<P> = {}): RunBinding<P> {
  const controller = useRunController(options);
  return useMemo(() => toBinding(controller), [controller]);
}
