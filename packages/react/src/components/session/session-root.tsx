'use client';
import { Slot } from '../slot.js';
import { useMemo, useState, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import type { SessionBinding } from '../../types.js';
import { useSessionSelector } from '../../use-session-selector.js';
import { KestrelLabelsProvider } from '../labels.js';
import type { RenderPayload } from '../payload-panel.js';
import type { ViewRenderers } from '../view-renderers.js';
import { selectActivity, SessionContext, type SessionContextValue } from './session-context.js';
import { createScrollStore } from './scroll-store.js';

const selectHistory = (state: { readonly history: string }) => state.history;

/** Props of `Session.Root`; `P` is the payload type, so `renderPayload` gets it typed. */
export interface SessionRootProps<P> extends HTMLAttributes<HTMLElement>, ViewRenderers<P> {
  /** The session every part below reads: what `useSession` (or `useSessionBinding`) returns. */
  readonly session: SessionBinding<P>;
  readonly children?: ReactNode;
  readonly ref?: Ref<HTMLElement>;
}

/**
 * The root of a conversation view: a `<section data-kestrel-session data-state data-history>` that gives its
 * session (and renderers and labels) to every part below. `data-state` is `idle`, `sending`, `live` or
 * `waiting` (the run in progress); `data-history` what is known of older runs. `SessionView` is the default
 * composition.
 *
 * @example
 * <Session.Root session={session} renderPayload={(invoice) => <InvoiceTable invoice={invoice} />}>
 *   <Session.Status />
 *   <Session.Thread><Session.LoadOlder /></Session.Thread>
 *   <Session.JumpToLatest />
 *   <Session.Composer />
 * </Session.Root>
 */
export function SessionRoot<P>({
  session,
  renderPayload,
  renderText,
  tools,
  renderInteraction,
  labels,
  asChild = false,
  children,
  ref,
  ...rest
}: SessionRootProps<P>) {
  const erased = session as SessionBinding<unknown>;
  const activity = useSessionSelector(erased, selectActivity);
  const history = useSessionSelector(erased, selectHistory);
  const [scroll] = useState(createScrollStore);
  const context = useMemo<SessionContextValue>(
    () => ({
      session: erased,
      renderPayload: renderPayload as RenderPayload<unknown> | undefined,
      renderText,
      tools,
      renderInteraction,
      scroll,
    }),
    [erased, renderPayload, renderText, tools, renderInteraction, scroll],
  );
  const Comp = asChild ? Slot : 'section';
  const body = (
    <SessionContext.Provider value={context}>
      <Comp {...rest} ref={ref} data-kestrel-session="" data-state={activity} data-history={history}>
        {children}
      </Comp>
    </SessionContext.Provider>
  );
  return labels === undefined ? body : <KestrelLabelsProvider labels={labels}>{body}</KestrelLabelsProvider>;
}
