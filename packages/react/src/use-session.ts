'use client';
import {
  createSessionController,
  type RunClient,
  type SessionConcurrency,
  type SessionController,
  type SessionControllerOptions,
  type SessionState,
} from '@kestrel/core';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { SessionBinding, UseSessionResult } from './types.js';
import { useClientOption, useReleaseOnUnmount } from './use-client-option.js';

/**
 * Options of `useSession`, all optional under a `KestrelProvider`: the controller's, a client or `baseUrl`, and
 * `onSessionId`. A changed `sessionId` shows that conversation (a new controller; the old one's runs are detached,
 * not cancelled); a changed `client` or `baseUrl` is used from the next request on. `concurrency`,
 * `responseFormat`, `payloadSchema`, `pageSize` and `onPage` are read when the controller is made.
 */
export interface UseSessionOptions<P = unknown> extends Partial<
  Omit<SessionControllerOptions<P>, 'client' | 'onSessionId'>
> {
  /** The run client; defaults to one made from `baseUrl`, then to the `KestrelProvider`'s. */
  readonly client?: RunClient;
  /** Where Kestrel (or your backend in front of it) answers `/v1/...`, when no client is given. */
  readonly baseUrl?: string;
  /**
   * When a `new` session learns its id (once), and when a session the server did not know (`history: 'not-found'`)
   * is replaced by the one the next message starts: put it in the URL. The latest function is called.
   */
  readonly onSessionId?: (sessionId: string) => void;
  /**
   * When the thread catches up with what other tabs or devices did (`refresh()`): `visible` (default) each time the
   * page comes back into view (`visibilitychange`), at the cost of one listing request; `manual` only when you call
   * `refresh()`.
   */
  readonly refreshOn?: 'visible' | 'manual';
}

function toSessionBinding<P>(
  controller: SessionController<P>,
  concurrency: SessionConcurrency | undefined,
): SessionBinding<P> {
  const { getState, getServerState, subscribe, send, loadOlder, refresh, retry, withdraw, cancel } = controller;
  return { getState, getServerState, subscribe, send, loadOlder, refresh, retry, withdraw, cancel, concurrency };
}

/** Calls the latest `onSessionId` each time the session goes from no id (`new`, or one found unknown) to an id. */
function useSessionIdListener<P>(controller: SessionController<P>, onSessionId: ((id: string) => void) | undefined) {
  const latest = useRef(onSessionId);
  useLayoutEffect(() => {
    latest.current = onSessionId;
  });
  useEffect(() => {
    let known = controller.getState().sessionId;
    return controller.subscribe(() => {
      const id = controller.getState().sessionId;
      if (known === null && id !== null) latest.current?.(id);
      known = id;
    });
  }, [controller]);
}

/** Calls `refresh()` whenever the page comes back into view: another tab may have answered or sent meanwhile. */
function useRefreshWhenVisible<P>(controller: SessionController<P>, refreshOn: 'visible' | 'manual'): void {
  useEffect(() => {
    if (refreshOn === 'manual') return;
    const onChange = () => {
      if (document.visibilityState === 'visible') void controller.refresh();
    };
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, [controller, refreshOn]);
}

/** The controller and what it was made for: the `sessionId` prop it follows and its policy (read at creation). */
interface HeldController<P> {
  readonly controller: SessionController<P>;
  readonly sessionId: string | undefined;
  readonly concurrency: SessionConcurrency | undefined;
}

/** `undefined` and `new` both ask for a new session. */
const wantedSession = (sessionId: string | undefined): string | null =>
  sessionId === undefined || sessionId === 'new' ? null : sessionId;

/**
 * The session controller of this component: created on mount and again whenever `sessionId` names another
 * conversation (the old one is disposed: its runs are detached, never cancelled), started on mount, disposed on
 * unmount. A new session handed its own learned id back (`onSessionId` → URL → prop) keeps its controller.
 */
function useSessionController<P>(options: UseSessionOptions<P>): HeldController<P> {
  const { client, context } = useClientOption('useSession()', options.client, options.baseUrl);
  const create = (): HeldController<P> => ({
    controller: createSessionController({
      client,
      sessionId: options.sessionId,
      concurrency: options.concurrency,
      responseFormat: options.responseFormat ?? context?.defaults.responseFormat,
      payloadSchema: options.payloadSchema,
      pageSize: options.pageSize,
      onPage: options.onPage,
    }),
    sessionId: options.sessionId,
    concurrency: options.concurrency,
  });
  // Creating a controller sends nothing, so StrictMode's double render (and a render React discards) is harmless.
  const [held, setHeld] = useState(create);
  let current = held;
  if (wantedSession(options.sessionId) !== wantedSession(held.sessionId)) {
    // Adjusting state while rendering (react.dev: "storing information from previous renders"): the new controller
    // is the one this render shows, so no frame shows the old conversation under the new id.
    const showing = held.controller.getState().sessionId === wantedSession(options.sessionId);
    current = showing ? { ...held, sessionId: options.sessionId } : create();
    setHeld(current);
  }
  const { controller } = current;
  // Like `useRun`: a new client is used from the next request on, and restarts nothing.
  useLayoutEffect(() => controller.setClient(client), [controller, client]);
  // `start` is idempotent: StrictMode's second mount loads nothing twice.
  useEffect(() => controller.start(), [controller]);
  useReleaseOnUnmount(controller, (released) => released.dispose());
  useSessionIdListener(controller, options.onSessionId);
  useRefreshWhenVisible(controller, options.refreshOn ?? 'visible');
  return current;
}

/**
 * A conversation of runs: loads its history (re-attaching to a live run found there), sends messages by the
 * `concurrency` policy, catches up with other tabs when the page comes back into view (`refreshOn`), and re-renders
 * with the session's state. Each entry's `run` is a run binding that every
 * run part takes (`<RunView run={entry.run} />`). A new `sessionId` shows that conversation (the old one's runs are
 * detached, not cancelled). Action functions are stable while the conversation stays the same.
 *
 * @example
 * const session = useSession({ sessionId: idFromUrl, onSessionId: (id) => history.replaceState(null, '', `?session=${id}`) });
 * <button onClick={() => session.send('What changed since yesterday?')}>Ask</button>
 * {session.state.entries.map((entry) => <RunView key={entry.key} run={entry.run} />)}
 */
export function useSession<P = unknown>(options: UseSessionOptions<P> = {}): UseSessionResult<P> {
  const binding = useSessionBinding(options);
  const state: SessionState<P> = useSyncExternalStore(binding.subscribe, binding.getState, binding.getServerState);
  return useMemo(() => ({ ...binding, state }), [binding, state]);
}

/**
 * The controller behind `useSession`, without subscribing to its state: the component that calls it does not
 * re-render while a run streams. Hand the binding to `<SessionView>` or read slices with `useSessionSelector`.
 *
 * @example
 * const session = useSessionBinding({ baseUrl: '/api/kestrel' });
 * return <SessionView session={session} />;
 */
export function useSessionBinding<P = unknown>(options: UseSessionOptions<P> = {}): SessionBinding<P> {
  const { controller, concurrency } = useSessionController(options);
  return useMemo(() => toSessionBinding(controller, concurrency), [controller, concurrency]);
}
